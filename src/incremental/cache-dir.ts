import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { hashOf } from '../util/hash.js';

/**
 * Where schema-sync keeps machine-local caches (V8 code cache, the output folder's stat cache):
 * never committed, safe to delete, never needed for a correct result.
 *
 * `SCHEMA_SYNC_CACHE_DIR` names the folder (`off` turns caching off); otherwise the project's
 * `node_modules/.cache/schema-sync`, the place babel, eslint and webpack use, found upward from
 * `cwd`; outside any project, a per-user folder in the OS temp folder.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string | undefined {
  const configured = env['SCHEMA_SYNC_CACHE_DIR'];
  if (configured !== undefined && configured !== '') {
    return /^(0|off|false|no|none)$/i.test(configured) ? undefined : resolve(cwd, configured);
  }
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'schema-sync');
    if (dirname(dir) === dir) break;
  }
  return join(tmpdir(), `schema-sync-cache-${safeUser()}`);
}

function safeUser(): string {
  try {
    return String(process.getuid?.() ?? userInfo().username.replace(/[^\w.-]/g, '_'));
  } catch {
    return 'user';
  }
}

/**
 * Writes a cache file whole or not at all (temp file, then rename), so a concurrent run never
 * reads half of one. Returns false on any error: a read-only or full cache folder costs speed only.
 */
export function writeCacheFile(file: string, content: string | Uint8Array): boolean {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, content);
    renameSync(temp, file);
    return true;
  } catch {
    return false;
  }
}

/** The cache file of kind `kind` (e.g. `stat-…tsv`) that belongs to the output folder `outDir`. */
export function cacheFileOf(cacheDir: string, outDir: string, kind: string, extension: string): string {
  return join(cacheDir, `${kind}-${hashOf(resolve(outDir))}.${extension}`);
}
