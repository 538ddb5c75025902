/**
 * The TypeScript projects an impact check compiles: the tsconfig the user names, read the way
 * `tsc -p` reads it (`extends` followed), and every project it references (`references`), each
 * compiled as a program of its own.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ts } from 'ts-morph';
import { ConfigError } from '../model/errors.js';
import { msg } from '../model/message.js';

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
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => (fatal = diagnostic),
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, undefined, host);
  if (parsed === undefined || fatal !== undefined) {
    const why = fatal === undefined ? 'it could not be read' : ts.flattenDiagnosticMessageText(fatal.messageText, ' ');
    throw new ConfigError(msg`--impact: cannot read the TypeScript project ${configPath}: ${why}`, {
      hint: msg`Name a tsconfig.json that \`tsc -p\` accepts.`,
    });
  }
  return parsed;
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
