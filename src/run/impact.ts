import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { plan, renderPlanned, type EmittedFile } from '../emit/index.js';
import { impact } from '../impact/index.js';
import type { LockfileText } from '../lock/index.js';
import type { ImpactResult } from '../model/impact.js';
import type { RunPaths } from './options.js';
import { outputSettings } from './run-context.js';

/** What an impact check compares: the lockfile before (none: no output) and after. */
export interface ImpactLockfiles {
  before: LockfileText | undefined;
  after: LockfileText;
}

/**
 * The impact of the change from `before` to `after` on each TypeScript project `projects` names
 * (tsconfig paths, relative to the run's `cwd`): each is type-checked in memory against the
 * output of either lockfile (rendered here, never written), laid over where the project sees
 * the output: an installed copy of the generated package (`node_modules/<package>` above the
 * project, when the lockfile records a package name and one is installed there), else the output
 * folder. Paths in the result are from the repository root (the run's `cwd` outside one).
 * Undefined when no project is named. ts-morph and the compiler load only then (`impact`).
 */
export async function projectImpact(paths: RunPaths, projects: readonly string[] | undefined, lockfiles: ImpactLockfiles): Promise<ImpactResult | undefined> {
  if (projects === undefined || projects.length === 0) return undefined;
  const before = lockfiles.before === undefined ? [] : await outputOf(paths, lockfiles.before);
  const after = await outputOf(paths, lockfiles.after);
  const packageName = lockfiles.after.settings().package ?? lockfiles.before?.settings().package;
  const root = repositoryRoot(paths.cwd);
  const results: ImpactResult[] = [];
  for (const project of projects) {
    const path = resolve(paths.cwd, project);
    results.push(await impact({ project: path, outputRoot: installedPackage(path, packageName) ?? paths.outDir, before, after, root }));
  }
  return mergeResults(results);
}

/** Every file a lockfile's output holds, as its recorded settings make it (prettier aside: it changes no type). */
async function outputOf(paths: RunPaths, lockfile: LockfileText): Promise<EmittedFile[]> {
  const settings = { ...outputSettings(paths, lockfile.settings()), prettierOutDir: undefined };
  return renderPlanned(await plan(lockfile.parse(), settings));
}

/** The folder of the package `name` installed in a `node_modules` at or above the project's folder. */
function installedPackage(project: string, name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  for (let folder = dirname(project); ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(folder) === folder) return undefined;
  }
}

/** The git repository's top folder above `cwd` (where `.git` is), else `cwd`. */
function repositoryRoot(cwd: string): string {
  for (let folder = cwd; ; folder = dirname(folder)) {
    if (existsSync(join(folder, '.git'))) return folder;
    if (dirname(folder) === folder) return cwd;
  }
}

/** Several projects' results as one: each message type's places together. */
function mergeResults(results: readonly ImpactResult[]): ImpactResult {
  const merged: ImpactResult = { projects: [], messages: {}, unattributed: [] };
  for (const result of results) {
    merged.projects.push(...result.projects.filter((project) => !merged.projects.includes(project)));
    merged.unattributed.push(...result.unattributed);
    for (const [name, entry] of Object.entries(result.messages)) {
      const into = (merged.messages[name] ??= { broken: [], referenced: [] });
      into.broken.push(...entry.broken);
      into.referenced.push(...entry.referenced);
    }
  }
  return merged;
}
