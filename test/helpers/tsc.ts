/**
 * `tsc -p <tsconfig>` for the tests' consumer projects, run through the TypeScript compiler API
 * in this process: the project's own tsconfig, every root file and import type-checked, the
 * outputs emitted unless the config says `noEmit`, the errors printed as tsc prints them, and
 * tsc's exit code (0 with no error).
 *
 * What a tsc process would spend again on each project is shared: the compiler is loaded once,
 * the files of the repository's dependencies (TypeScript's lib files such as lib.dom.d.ts,
 * @types/node), which no test changes, are parsed and bound once per test worker, and the
 * projects of one call share the files they have in common (parsed once for each way they are
 * read, e.g. as an ES module or as CommonJS). Each project still gets a program and a type
 * checker of its own, as tsserver does for the projects it holds.
 */
import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import type * as TS from 'typescript';
import { NO_CHECK_LINES } from '../../src/emit/writers.js';
import { ROOT } from './cli.js';

/** The compiler, loaded on first use (most files that import this helper's module never compile). */
let loaded: typeof TS | undefined;
const compiler = (): typeof TS => (loaded ??= createRequire(import.meta.url)(join(ROOT, 'node_modules/typescript')) as typeof TS);
/** Where the repository's dependencies are (TypeScript's lib files, @types/node, …), as the compiler names them. */
const DEPENDENCIES = realpathSync(join(ROOT, 'node_modules')) + sep;

/** What a `tsc` run printed and exited with. */
export interface TscResult {
  code: number;
  output: string;
}

/** The head of a generated TypeScript module, and what the tests read in its place. */
const GENERATED_NO_CHECK = NO_CHECK_LINES.join('\n');
const CHECKED_IN_TESTS = `${NO_CHECK_LINES[0]}\n// (checked: test/helpers/tsc.ts)`;

/** The dependencies' files as parsed and bound, by file and the way they were parsed. */
const dependencyFiles = new Map<string, TS.SourceFile>();

/** `tsc -p` on each tsconfig, in order. */
export function compileProjects(...tsconfigs: string[]): TscResult[] {
  const shared = new Map<string, TS.SourceFile>();
  return tsconfigs.map((tsconfig) => compile(tsconfig, shared));
}

/**
 * The program of one project for `tsc --noEmit`, checking only the project's root files and
 * the files `own` names (realpaths): the declarations of third parties (zod, undici,
 * @types/node, lib.dom) are what `skipLibCheck` would skip, and checking them costs seconds
 * without proving anything about schema-sync; `skipLibCheck` itself would skip schema-sync's own
 * `.d.ts` files too. Returns the files checked and tsc's errors for them ('' with none).
 */
export function typecheckOwnFiles(tsconfig: string, own: (realpath: string) => boolean): { checked: string[]; errors: string } {
  const { config, program } = programOf(tsconfig, new Map());
  const roots = new Set(config.fileNames.map((f) => realpathSync(f)));
  const mine = program.getSourceFiles().filter((f) => roots.has(realpathSync(f.fileName)) || own(realpathSync(f.fileName)));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...mine.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
  ];
  return { checked: mine.map((f) => f.fileName), errors: format(diagnostics, dirname(tsconfig)) };
}

function compile(tsconfig: string, shared: Map<string, TS.SourceFile>): TscResult {
  const ts = compiler();
  let parsed: ReturnType<typeof programOf>;
  try {
    parsed = programOf(tsconfig, shared);
  } catch (error) {
    if (!(error instanceof ConfigFailure)) throw error;
    return { code: 1, output: format(error.diagnostics) };
  }
  const { config, program } = parsed;
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  // As tsc: emit unless noEmit (or noEmitOnError with errors); exit 2 with errors, 1 when they stopped the emit.
  const emitted = program.emit();
  diagnostics.push(...emitted.diagnostics);
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  const code = errors.length === 0 ? 0 : emitted.emitSkipped && !config.options.noEmit ? 1 : 2;
  return { code, output: format(ts.sortAndDeduplicateDiagnostics(diagnostics)) };
}

/**
 * Fails when a file of the program (not a dependency's) would go unchecked: a generated module
 * whose head no longer reads as NO_CHECK_LINES (a new writer path, CRLF …) would keep its
 * `@ts-nocheck`, and a test would check nothing of it while it passed. The records runtime says
 * its own `@ts-nocheck` and is checked where it is written (test/emit/records-parse.test.ts).
 */
function uncheckedFilesRefused(program: TS.Program): void {
  for (const file of program.getSourceFiles()) {
    if (file.fileName.startsWith(DEPENDENCIES) || /\/records-runtime\.(m?ts|js)$/.test(file.fileName)) continue;
    const directive = (file as TS.SourceFile & { checkJsDirective?: { enabled: boolean } }).checkJsDirective;
    if (directive?.enabled === false) throw new Error(`${file.fileName} says @ts-nocheck and would go unchecked: test/helpers/tsc.ts turns off only NO_CHECK_LINES`);
  }
}

/** A tsconfig that cannot be read at all. */
class ConfigFailure extends Error {
  constructor(readonly diagnostics: TS.Diagnostic[]) {
    super('unreadable tsconfig');
  }
}

/** The parsed tsconfig and its program, through a host that shares parsed files (see above). */
function programOf(tsconfig: string, shared: Map<string, TS.SourceFile>): { config: TS.ParsedCommandLine; program: TS.Program } {
  const ts = compiler();
  const configErrors: TS.Diagnostic[] = [];
  const config = ts.getParsedCommandLineOfConfigFile(tsconfig, undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => configErrors.push(d) });
  if (config === undefined) throw new ConfigFailure(configErrors);
  const host = ts.createCompilerHost(config.options);
  // Generated TypeScript modules say `@ts-nocheck` (NO_CHECK_LINES): the tests check them all the
  // same, with the directive turned into a plain comment on the same line.
  const read = host.readFile.bind(host);
  host.readFile = (fileName) => read(fileName)?.replace(GENERATED_NO_CHECK, CHECKED_IN_TESTS);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, how, onError, shouldCreate) => {
    const options = typeof how === 'object' ? how : { languageVersion: how };
    const key = `${fileName}\0${options.languageVersion}\0${options.impliedNodeFormat}\0${options.jsDocParsingMode}\0${config.options.moduleDetection}`;
    const cache = fileName.startsWith(DEPENDENCIES) ? dependencyFiles : shared;
    let file = cache.get(key);
    if (file === undefined) {
      file = parse(fileName, how, onError, shouldCreate);
      if (file !== undefined) cache.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    projectReferences: config.projectReferences,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
  uncheckedFilesRefused(program);
  return { config, program };
}

/** As tsc prints errors (not a terminal): paths relative to the folder it runs in. */
function format(diagnostics: readonly TS.Diagnostic[], cwd = process.cwd()): string {
  const ts = compiler();
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => cwd, getNewLine: () => '\n' });
}

/** The compiler options of a demanding consumer of the generated code. */
export const STRICT_CONSUMER = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  module: 'nodenext',
  moduleResolution: 'nodenext',
  target: 'es2022',
  lib: ['es2022'],
  types: [],
  noEmit: true,
  // TypeScript's own lib files are not what is tested (the generated files are all checked).
  skipDefaultLibCheck: true,
};

/** Runs a command to its end (a consumer project's `node main.js`, `npm init`): its exit code and everything it printed. */
export function runToEnd(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
