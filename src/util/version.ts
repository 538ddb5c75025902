import { readFileSync } from 'node:fs';

/** The package version, read once from package.json (two levels up from src/util and dist/util). */
export const VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * How a listing's bytes become descriptors. Raise it when that changes (a value read otherwise,
 * a field now optional), so that an answer remembered as parsing to some lockfile is parsed anew
 * even within one version of schema-sync.
 */
export const WIRE_SCHEME = '2';
