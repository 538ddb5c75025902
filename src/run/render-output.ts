import { resolve } from 'node:path';
import { emitFiles, formatWithPrettier } from '../emit/index.js';
import type { Lockfile } from '../model/lockfile.js';
import type { OutputFile } from '../write/index.js';
import type { BaseOptions } from './options.js';

/** The files a lockfile generates, formatted as configured: the single source of truth for pull, check and generate. */
export async function renderOutput(lock: Lockfile, options: BaseOptions, paths: { cwd: string; outDir: string }): Promise<OutputFile[]> {
  const files = await emitFiles({
    messages: lock.messages,
    source: lock.source,
    templatesDir: options.templates === undefined ? undefined : resolve(paths.cwd, options.templates),
    packageName: options.packageName,
  });
  return options.prettier ? formatWithPrettier(files, { outDir: paths.outDir }) : files;
}
