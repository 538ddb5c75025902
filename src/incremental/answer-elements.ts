import { readCacheFile, writeCacheFile } from './cache-dir.js';

/**
 * The elements of the answer a pull last parsed, kept in the cache folder: the hash of each
 * element's text and the name of the type it made (with no warning) in the lockfile the pull
 * wrote. A later answer's elements of the same texts are those entries of that lockfile, so its
 * parse takes them from there unvalidated, and validates only the others. The record is keyed
 * by what the mapping depends on (the lockfile's hash, schema-sync's version): a record of
 * another key, or a damaged one, is no record.
 */
export interface AnswerElements {
  /** The lockfile's hash with what else the mapping depends on: the record holds for this key alone. */
  key: string;
  /** The name each element made, by the hash of its text. */
  names: ReadonlyMap<string, string>;
}

const HEADER = 'schema-sync answer elements 1';

/** The record in `file` when it has `key`; undefined otherwise. */
export function loadAnswerElements(file: string, key: string): ReadonlyMap<string, string> | undefined {
  const text = readCacheFile(file)?.toString('utf8');
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  // The file ends with a line break: its last "line" is empty.
  if (lines[0] !== HEADER || lines[1] !== key || lines.at(-1) !== '') return undefined;
  const names = new Map<string, string>();
  for (let i = 2; i < lines.length - 1; i++) {
    const line = lines[i]!;
    const tab = line.indexOf('\t');
    if (tab <= 0) return undefined;
    let name: unknown;
    try {
      name = JSON.parse(line.slice(tab + 1));
    } catch {
      return undefined;
    }
    if (typeof name !== 'string') return undefined;
    names.set(line.slice(0, tab), name);
  }
  return names;
}

/** Writes the record (errors only cost speed). */
export function saveAnswerElements(file: string, elements: AnswerElements): void {
  const lines = [HEADER, elements.key];
  // A name in JSON: no tab or line break of its own splits the line.
  for (const [hash, name] of elements.names) lines.push(`${hash}\t${JSON.stringify(name)}`);
  writeCacheFile(file, `${lines.join('\n')}\n`);
}
