import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { findMergeConflict, LockfileText } from '../lock/index.js';
import { ConfigError, LockError } from '../model/errors.js';
import { FileRefused, readBoundedFile, READ_BOUNDS, withoutBom } from '../util/read-bounded.js';
import { readAtMost } from '../fetch/read-limited.js';
import { msg, own, type Message } from '../model/message.js';

const run = promisify(execFile);

/** Which of the two lockfiles of a `diff`: named in every error, so the user knows which to fix. */
export type Side = 'base' | 'head';

/** A lockfile read for `diff`, parsed; `path` is its absolute path when it is a file in the working tree. */
export interface SourcedLockfile {
  lockfile: LockfileText;
  /** How it was named: a path, `standard input`, or `<rev>:<path>`. */
  label: string;
  path: string | undefined;
}

/**
 * Reads and parses one side of a `diff`: a file path (relative to `cwd`), `-` for standard input,
 * or `<rev>:<path>` read with `git show` (run in `cwd` without a shell, so nothing in the name
 * is interpreted; the path is relative to the repository root, as git reads it); see
 * {@link lockfileSpecKind}. Merge conflict markers or anything that is not a valid
 * lockfile are a LockError naming the side.
 */
export async function readLockfileSource(spec: string, side: Side, io: { cwd: string; stdin?: NodeJS.ReadableStream }): Promise<SourcedLockfile> {
  const { text: read, label, path } = await readSource(spec, side, io);
  const text = withoutBom(read);
  const conflict = findMergeConflict(text);
  if (conflict !== undefined) {
    throw new LockError(msg`the ${own(side)} lockfile ${label} has git merge conflict markers (line ${conflict.line}).`, {
      hint: msg`Resolve the conflict first (\`schema-sync pull\` writes a clean lockfile from your side), or compare another revision.`,
    });
  }
  const lockfile = new LockfileText(text, `the ${side} lockfile ${label}`, undefined, msg`the ${own(side)} lockfile ${label}`);
  lockfile.parse();
  return { lockfile, label, path };
}

/**
 * Where a lockfile name points: standard input (`-`), a file (its absolute path, resolved against
 * `cwd`), or a git revision's file (`<rev>:<path>`). A name that is an existing file is always
 * the file, so a file name with a colon still reads as itself.
 */
export function lockfileSpecKind(spec: string, cwd: string): { kind: 'stdin' } | { kind: 'file'; path: string } | { kind: 'git' } {
  if (spec === '-') return { kind: 'stdin' };
  const path = resolve(cwd, spec);
  return existsSync(path) || !/^[^:]+:/.test(spec) ? { kind: 'file', path } : { kind: 'git' };
}

async function readSource(spec: string, side: Side, io: { cwd: string; stdin?: NodeJS.ReadableStream }): Promise<{ text: string; label: string; path: string | undefined }> {
  const found = lockfileSpecKind(spec, io.cwd);
  if (found.kind === 'stdin') return { text: await readStdin(io.stdin ?? process.stdin, side), label: 'standard input', path: undefined };
  if (found.kind === 'git') {
    refuseOptionLike(spec.slice(0, spec.indexOf(':')), msg`the ${own(side)} lockfile ${spec}`);
    // After --end-of-options git reads it as a revision whatever it holds; no text conversion a repository's attributes may name is run.
    return { text: await git(['show', '--no-textconv', '--end-of-options', spec], io.cwd, msg`read the ${own(side)} lockfile ${spec}`), label: spec, path: undefined };
  }
  try {
    // A regular file only, read against its bound: a FIFO or device named here would hang or never end.
    return { text: (await readBoundedFile(found.path, { maxBytes: READ_BOUNDS.lockfile })).toString('utf8'), label: spec, path: found.path };
  } catch (error) {
    throw new LockError(msg`cannot read the ${own(side)} lockfile ${spec}: ${error instanceof FileRefused ? own(error.reason) : (error as Error).message}`, {
      hint: msg`Name a lockfile path, - for standard input, or a git revision as <rev>:<path> (e.g. main:schema-sync.lock.json).`,
    });
  }
}

/** Standard input, at most a lockfile's bound of it. */
async function readStdin(stdin: NodeJS.ReadableStream, side: Side): Promise<string> {
  const tooLarge = () => new LockError(msg`the ${own(side)} lockfile on standard input is larger than ${own(`${READ_BOUNDS.lockfile / 1024 / 1024} MiB`)}, the most schema-sync reads of a lockfile; it stopped reading.`, {
    hint: msg`Pipe a lockfile to it (e.g. \`git show main:schema-sync.lock.json\`), not an endless stream.`,
  });
  const body = await readAtMost(stdin, undefined, READ_BOUNDS.lockfile, tooLarge);
  return body.bytes.toString('utf8');
}

/**
 * `<rev>:<path>` of the project's lockfile at a revision: its path from the repository root
 * (`git rev-parse --show-prefix` in its folder), as `git show` wants it.
 */
export async function lockfileAtRevision(rev: string, lockfilePath: string): Promise<string> {
  refuseOptionLike(rev, msg`--against ${rev}`);
  const prefix = (await git(['rev-parse', '--show-prefix'], dirname(lockfilePath), msg`find ${lockfilePath} in a git repository`)).trim();
  return `${rev}:${prefix}${basename(lockfilePath)}`;
}

/**
 * A revision that begins with `-` is refused before git sees it: git would read it as an option
 * (`--output=<file>` makes it write a file). Revisions are also passed after `--end-of-options`.
 */
function refuseOptionLike(rev: string, where: Message): void {
  if (!rev.startsWith('-')) return;
  throw new ConfigError(msg`${where}: the revision ${rev} begins with "-", which git would read as an option; schema-sync did not run git.`, {
    hint: msg`Name a revision (a branch, tag or commit, e.g. origin/main); a lockfile whose name begins with "-" is read as a path: ./-name.`,
  });
}

/** Runs git (no shell); a failure is a LockError with git's own first line of complaint. */
async function git(args: readonly string[], cwd: string, what: Message): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, encoding: 'utf8', maxBuffer: READ_BOUNDS.lockfile });
    return stdout;
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    // A missing working folder fails the spawn with ENOENT too, as a missing git does.
    const missing = failure.code !== 'ENOENT' ? undefined : existsSync(cwd) ? 'git is not installed (or not on PATH)' : `the folder ${cwd} does not exist`;
    const detail = missing ?? ((failure.stderr ?? '').trim().split('\n')[0] || failure.message);
    if (/not a git repository/i.test(failure.stderr ?? '')) {
      throw new LockError(msg`cannot ${what}: ${cwd} is not a git repository (nor is any folder above it).`, {
        hint: msg`A git revision is read from the repository: run schema-sync inside its checkout, or name the lockfile by its path (e.g. schema-sync diff old.lock.json).`,
      });
    }
    throw new LockError(msg`cannot ${what}: ${detail}`, {
      hint: msg`Check the revision (\`git log --oneline\`) and that the lockfile is committed there; in CI, fetch the base branch first (e.g. \`git fetch origin main\`).`,
    });
  }
}
