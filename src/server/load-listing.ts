/**
 * Reading a listing file for the reference server (`serve --file`), with errors that say which
 * file is wrong and how.
 */

import { readFile } from 'node:fs/promises';
import { ConfigError } from '../model/errors.js';

/**
 * Reads and parses a JSON file holding the array of wire elements to serve.
 * @throws ConfigError when the file cannot be read, is not JSON, or is not a JSON array
 * @example const listing = await loadListingFile('examples/descriptors.json');
 */
export async function loadListingFile(path: string): Promise<unknown[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read listing file ${path}: ${reason(error)}.`, {
      hint: 'Check the path; it is resolved from the working directory.',
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    // A BOM is common in files saved by Windows editors and is not part of the JSON.
    parsed = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new ConfigError(`Listing file ${path} is not valid JSON: ${reason(error)}.`, {
      hint: 'Save the body of a /rest/proto response as it was received.',
      cause: error,
    });
  }
  if (!Array.isArray(parsed)) {
    throw new ConfigError(`Listing file ${path} holds ${describe(parsed)}, not a JSON array of listing elements.`, {
      hint: 'The file must hold the array a /rest/proto response carries: [{ "header": …, "message": … }, …].',
    });
  }
  return parsed;
}

function reason(error: unknown): string {
  if (error instanceof Error) return error.message.replace(/\.$/, '');
  return String(error);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
