/**
 * The TypeScript projects an impact check compiles: the tsconfig the user names, read the way
 * `tsc -p` reads it (`extends` followed), and every project it references (`references`), each
 * compiled as a program of its own.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ts } from 'ts-morph';
import { ConfigError } from '../model/errors.js';
import { msg, own } from '../model/message.js';
import { MAX_NESTING } from '../util/nesting.js';
import { FileRefused, readBoundedFileSync, READ_BOUNDS } from '../util/read-bounded.js';

/** One project to compile: its tsconfig, root files and compiler options. */
export interface ImpactProject {
  /** Absolute path of its tsconfig. */
  configPath: string;
  rootNames: readonly string[];
  options: ts.CompilerOptions;
}

/** A tsconfig file, or the `tsconfig.json` of a folder, as `tsc -p` finds it; undefined when there is none. */
function configFileOf(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const file = statSync(path).isDirectory() ? join(path, 'tsconfig.json') : path;
  return existsSync(file) ? file : undefined;
}

function parseConfig(configPath: string): ts.ParsedCommandLine {
  let fatal: ts.Diagnostic | undefined;
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    readFile: readTsconfig,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => (fatal = diagnostic),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, host);
  // TypeScript reads a tsconfig that is not JSON at all as best it can; `tsc -p` refuses it for
  // its syntax errors (codes below 2000), and so does the check.
  fatal ??= parsed?.errors.find((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error && diagnostic.code < 2000);
  if (parsed === undefined || fatal !== undefined) {
    const where = fatal?.file !== undefined && fatal.start !== undefined ? ` (${fatal.file.fileName}, line ${fatal.file.getLineAndCharacterOfPosition(fatal.start).line + 1})` : '';
    const why = fatal === undefined ? 'it could not be read' : `${ts.flattenDiagnosticMessageText(fatal.messageText, ' ')}${where}`;
    throw new ConfigError(msg`--impact: cannot read the TypeScript project ${configPath}: ${why}`, {
      hint: msg`Name a tsconfig.json that \`tsc -p\` accepts.`,
    });
  }
  return parsed;
}

/**
 * A tsconfig's text (the named one, or one it extends), read as every file a repository names
 * is: a regular file only, at most `READ_BOUNDS.tsconfig`, and nested no deeper than the nesting
 * limit (TypeScript's parser recurses once per level: 100,000 levels overflow its stack).
 */
function readTsconfig(path: string): string {
  let text: string;
  try {
    text = readBoundedFileSync(path, { maxBytes: READ_BOUNDS.tsconfig }).toString('utf8');
  } catch (error) {
    const why = error instanceof FileRefused ? error.reason : (error as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new ConfigError(msg`--impact: cannot read the TypeScript project ${path}: ${own(why)}.`, {
      hint: msg`Name a tsconfig.json that \`tsc -p\` accepts: a regular file.`,
    });
  }
  if (jsonDepth(text) > MAX_NESTING) {
    throw new ConfigError(msg`--impact: the TypeScript project ${path} is nested deeper than ${own(String(MAX_NESTING))} levels.`, {
      hint: msg`Name a tsconfig.json that \`tsc -p\` accepts.`,
    });
  }
  return text;
}

/** The deepest nesting of brackets in JSON with comments (as a tsconfig is), outside strings and comments. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (char === '{' || char === '[') {
      deepest = Math.max(deepest, ++depth);
    } else if (char === '}' || char === ']') {
      depth--;
    }
  }
  return deepest;
}

/**
 * Reads the project named by `path` (a tsconfig file or a folder holding `tsconfig.json`) and
 * every project it references, each once, the named one first.
 * @throws ConfigError when there is no such tsconfig, or it cannot be parsed.
 */
export function loadProjects(path: string): ImpactProject[] {
  const first = configFileOf(resolve(path));
  if (first === undefined) {
    throw new ConfigError(msg`--impact: no TypeScript project at ${path}`, {
      hint: msg`Name the tsconfig.json of a project that imports the generated code (--impact tsconfig.json, or "impact" in the config file), relative to the config file.`,
    });
  }
  const projects: ImpactProject[] = [];
  const seen = new Set<string>();
  const visit = (configPath: string): void => {
    if (seen.has(configPath)) return;
    seen.add(configPath);
    const parsed = parseConfig(configPath);
    projects.push({ configPath, rootNames: parsed.fileNames, options: parsed.options });
    for (const reference of parsed.projectReferences ?? []) {
      const referenced = configFileOf(ts.resolveProjectReferencePath(reference)) ?? configFileOf(join(dirname(configPath), reference.path));
      if (referenced !== undefined) visit(resolve(referenced));
    }
  };
  visit(resolve(first));
  return projects;
}
