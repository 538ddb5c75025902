import { relative, sep } from 'node:path';
import type { ReportLocations } from '../../diff/index.js';
import { entryLine } from '../../lock/index.js';
import type { CliIo } from '../io.js';
import type { Logger } from '../logger.js';

/** Reports go to stdout; JSON and GitHub annotations are machine output and print even with --quiet. */
export function emitReport(log: Logger, format: string, text: string): void {
  if (text.trim() === '') return;
  if (format === 'json' || format === 'github' || !log.quiet) log.out(text);
}

/**
 * Where GitHub annotations point: paths from the repository root (`GITHUB_WORKSPACE` under
 * Actions, else the working directory), and each message's entry line in the lockfile.
 */
export function reportLocations(io: CliIo, paths: { outDir: string; lockfilePath: string; lockfileText: string | undefined }): ReportLocations {
  const root = io.env['GITHUB_WORKSPACE'] || io.cwd;
  const fromRoot = (path: string) => relative(root, path).split(sep).join('/');
  const text = paths.lockfileText ?? '';
  return { lockfile: fromRoot(paths.lockfilePath), outDir: fromRoot(paths.outDir), lineOf: (name) => entryLine(text, name) };
}

/** Milliseconds as "1.2 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
