/**
 * A small shell for the documentation's runnable blocks: just what a reader types from them.
 * Each line is a pipeline of commands (`|`), optionally chained with `&&`, with `>` / `>>` into
 * a file; `#` starts a comment; words are split as sh splits them (single and double quotes,
 * `$NAME`). `npx schema-sync …` runs the CLI in this process (as `runCli` does: the same parsing,
 * settings, library and exit code as the built CLI, without a process start per command), `git`
 * runs git, `export` and `cd` change the shell's state. Any other command fails the block: a
 * block that needs one is marked not runnable, with the reason.
 */
import { execFile } from 'node:child_process';
import { appendFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { runCli } from './in-process.js';

/** What one command of a block did. */
export interface ShellStep {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** The shell's state, kept from block to block as a reader's terminal keeps it. */
export interface DocShell {
  cwd: string;
  env: Record<string, string>;
  /** Rewrites each `schema-sync` argument before the run (e.g. a placeholder URL to the test server's). */
  rewrite: (arg: string) => string;
}

/**
 * Runs a block line by line, as a reader pastes it into an interactive shell: every line runs
 * (`check` and `diff` end with 1 on drift, which the caller judges), and `&&` skips the rest of
 * its line after a command that fails.
 */
export async function runBlock(shell: DocShell, body: string): Promise<ShellStep[]> {
  const steps: ShellStep[] = [];
  for (const line of body.replace(/\\\n/g, ' ').split('\n')) {
    for (const pipeline of splitOn(words(line, shell.env), '&&')) {
      if (pipeline.length === 0) continue;
      const step = await runPipeline(shell, pipeline);
      steps.push(step);
      if (step.code !== 0) break;
    }
  }
  return steps;
}

/** The words and operators of a line, comments dropped, `$NAME` expanded from `env` (not in single quotes). */
export function words(line: string, env: Record<string, string>): string[] {
  const expand = (text: string) => text.replace(/\$(\w+)/g, (_, name: string) => env[name] ?? '');
  const out: string[] = [];
  let word: string | undefined;
  const push = () => {
    if (word !== undefined) out.push(word);
    word = undefined;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (/\s/.test(c)) push();
    else if (c === '#' && word === undefined) break;
    else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed quote in: ${line}`);
      const quoted = line.slice(i + 1, end);
      word = (word ?? '') + (c === '"' ? expand(quoted) : quoted);
      i = end;
    } else if (c === '|' || c === '&' || c === '>') {
      push();
      const double = line[i + 1] === c;
      out.push(double ? c + c : c);
      if (double) i++;
    } else if (c === '$' && /^\$\w/.test(line.slice(i))) {
      const name = /^\$\w+/.exec(line.slice(i))![0];
      word = (word ?? '') + expand(name);
      i += name.length - 1;
    } else word = (word ?? '') + c;
  }
  push();
  return out;
}

function splitOn(tokens: string[], operator: string): string[][] {
  const parts: string[][] = [[]];
  for (const token of tokens) {
    if (token === operator) parts.push([]);
    else parts.at(-1)!.push(token);
  }
  return parts;
}

async function runPipeline(shell: DocShell, tokens: string[]): Promise<ShellStep> {
  const unknown = tokens.find((token) => token === '||' || token === '&');
  if (unknown !== undefined) return { command: tokens.join(' '), code: 127, stderr: `the documentation's shell does not know ${unknown}`, stdout: '' };
  let redirect: { file: string; append: boolean } | undefined;
  const at = tokens.findIndex((token) => token === '>' || token === '>>');
  if (at >= 0) {
    redirect = { file: resolve(shell.cwd, tokens[at + 1]!), append: tokens[at] === '>>' };
    tokens = [...tokens.slice(0, at), ...tokens.slice(at + 2)];
  }
  let input = '';
  let last: ShellStep = { command: '', code: 0, stdout: '', stderr: '' };
  for (const argv of splitOn(tokens, '|')) {
    last = await runCommand(shell, argv, input);
    // Like `set -o pipefail`: a failing stage fails the pipeline.
    if (last.code !== 0) return last;
    input = last.stdout;
  }
  if (redirect !== undefined) await (redirect.append ? appendFile : writeFile)(redirect.file, last.stdout);
  return last;
}

async function runCommand(shell: DocShell, argv: string[], input: string): Promise<ShellStep> {
  const command = argv.join(' ');
  const [program, ...args] = argv;
  if (program === 'export') {
    for (const assignment of args) {
      const eq = assignment.indexOf('=');
      shell.env[assignment.slice(0, eq)] = assignment.slice(eq + 1);
    }
    return { command, code: 0, stdout: '', stderr: '' };
  }
  if (program === 'cd') {
    shell.cwd = resolve(shell.cwd, args[0] ?? '.');
    return { command, code: 0, stdout: '', stderr: '' };
  }
  if (program === 'npx' && args[0] === 'schema-sync') {
    const run = await runCli(args.slice(1).map(shell.rewrite), { cwd: shell.cwd, env: shell.env, input });
    return { command, ...run };
  }
  if (program === 'git') return { command, ...(await git(args, shell.cwd)) };
  return { command, code: 127, stdout: '', stderr: `the documentation's shell does not run ${program}: mark the block not runnable` };
}

function git(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('git', args, { cwd, encoding: 'utf8' }, (error, stdout, stderr) => {
      done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
    });
  });
}
