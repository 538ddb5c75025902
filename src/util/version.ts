import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two levels up from src/util and dist/util). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * How a listing's bytes become descriptors. Raise it when that changes (a value read otherwise,
 * a field now optional), so that an answer remembered as parsing to some lockfile is parsed anew
 * even within one version of schema-sync.
 */
export const WIRE_SCHEME = '2';

/**
 * This build, for the keys of cache records (never for anything written to the output folder or
 * the lockfile, which depend on the version alone): the version and, where the build left one,
 * its stamp (`dist/build-stamp.txt`: the hash of the sources it was built from, written by
 * scripts/build-stamp.mjs). Two builds of one version that validate or parse differently (a
 * checkout's, between two commits) must not take each other's records of what an answer made.
 */
export const BUILD: string = `${VERSION}${buildStamp()}`;

function buildStamp(): string {
  try {
    // dist/util/version.js and the bundled dist/cli/schema-sync.cjs both sit one folder below dist/.
    return ` ${readFileSync(new URL('../build-stamp.txt', import.meta.url), 'utf8').trim()}`;
  } catch {
    return '';
  }
}
