import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConfigError, ResponseError } from '../model/errors.js';
import { msg, own, type Message } from '../model/message.js';
import { plural } from '../util/plural.js';
import { hashOf } from '../util/hash.js';

/**
 * The default of `--max-bytes`: 32 MiB of decoded body, some 300 times a real listing (264 types
 * are about 108 KB, 10,000 types 3.4 MB), and little enough that a runaway body cannot take the
 * machine's memory with it.
 */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** Checks a `maxBytes` option: a positive whole number of bytes; undefined means the default. */
export function validateMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined) return DEFAULT_MAX_BYTES;
  if (Number.isSafeInteger(maxBytes) && maxBytes > 0) return maxBytes;
  throw new ConfigError(msg`--max-bytes must be a whole number of bytes greater than 0, got ${String(maxBytes)}.`, {
    hint: msg`Set --max-bytes (config "maxBytes", or the maxBytes option) to e.g. ${DEFAULT_MAX_BYTES}, the default (32 MiB).`,
  });
}

/** A body read whole: its bytes and their `hashOf`. */
export interface ReadBody {
  bytes: Buffer;
  hash: string;
}

/**
 * Reads a stream (through `decoder`, e.g. a decompressor, or several in turn, when given) to its end, counting the
 * bytes as they come out: past `maxBytes` it stops at once and destroys the streams (for a
 * response, that aborts the request), so a body that never ends or inflates without bound is
 * never held whole.
 * @throws the error of `tooLarge()` past the limit, else the streams' own error
 */
export async function readAtMost(source: NodeJS.ReadableStream, decoder: Transform | readonly Transform[] | undefined, maxBytes: number, tooLarge: () => Error): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  let overflow: Error | undefined;
  // A caller's standard input may give text (a stream with an encoding, Readable.from(strings)).
  const collect = async (decoded: AsyncIterable<Buffer | string>) => {
    for await (const piece of decoded) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      size += chunk.length;
      if (size > maxBytes) throw (overflow = tooLarge());
      chunks.push(chunk);
    }
  };
  try {
    // Several decoders (a body compressed twice) undo their codings in the order given.
    const decoders = decoder === undefined ? [] : Array.isArray(decoder) ? decoder : [decoder as Transform];
    await (pipeline as (...streams: unknown[]) => Promise<void>)(source, ...decoders, collect);
  } catch (error) {
    // Leaving the loop destroys the streams before the pipeline hears why: it may then report
    // their AbortError instead of the reason.
    throw overflow ?? error;
  }
  const bytes = Buffer.concat(chunks, size);
  return { bytes, hash: hashOf(bytes) };
}

/**
 * Reads a file as {@link readAtMost} reads a stream. A regular file is refused at once when its
 * size is past `maxBytes`, else read whole. Anything else (a pipe, a device such as /dev/zero) is
 * streamed and counted.
 */
export async function readFileAtMost(path: string, maxBytes: number, tooLarge: () => Error): Promise<ReadBody> {
  const handle = await open(path);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return await readAtMost(createReadStream('', { fd: handle.fd, autoClose: false }), undefined, maxBytes, tooLarge);
    if (stat.size > maxBytes) throw tooLarge();
    const bytes = await handle.readFile();
    // A file that grew since its stat.
    if (bytes.length > maxBytes) throw tooLarge();
    return { bytes, hash: hashOf(bytes) };
  } finally {
    await handle.close();
  }
}

/** The error of a body past `--max-bytes`: which limit, and how to raise it. */
export function tooLargeError(origin: string, maxBytes: number, what: Message): ResponseError {
  return new ResponseError(msg`${origin}: ${what} is larger than the limit of ${own(describeLimit(maxBytes))}; schema-sync stopped reading it.`, {
    hint: msg`A listing of 10,000 types is a few MB: check --base-url and the query. If the listing really is this large, raise --max-bytes (config "maxBytes").`,
  });
}

/** `33554432 bytes (32 MiB, --max-bytes)`; the unit only for a whole number of KiB, MiB or GiB. */
function describeLimit(bytes: number): string {
  const units: Array<[number, string]> = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']];
  const unit = units.find(([size]) => bytes >= size && bytes % size === 0);
  return `${plural(bytes, 'byte')} (${unit ? `${bytes / unit[0]} ${unit[1]}, ` : ''}--max-bytes)`;
}
