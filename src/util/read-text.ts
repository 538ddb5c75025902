import { readFile } from 'node:fs/promises';

/**
 * A file's text (UTF-8), read as bytes and decoded at once. `readFile` with an encoding gives a
 * text made of its chunks joined lazily, which V8 copies whole when it is first read: a lockfile
 * of hundreds of MB would be held twice for a moment.
 */
export async function readTextFile(path: string): Promise<string> {
  return (await readFile(path)).toString('utf8');
}
