import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConfigError, ResponseError } from '../model/errors.js';
import { msg, own, type Message } from '../model/message.js';
import { plural } from '../util/plural.js';
import { pieceHasher } from '../util/hash.js';

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

/**
 * A body read whole: its bytes as blocks of about {@link BLOCK_BYTES} (a reader may let go of each
 * once it has read it), how many there are, and their `hashOf` (taken as they came in).
 */
export interface ReadBody {
  blocks: Buffer[];
  size: number;
  hash: string;
}

/**
 * How many bytes a block of a body holds: few enough blocks that reading on from one to the
 * next costs nothing to speak of, small enough that the part of a large listing not yet parsed
 * is most of what is held of its bytes, and large enough that the C library maps each block's
 * memory on its own (past its threshold, which a freed buffer of a few MB raises to its size),
 * so a block freed is memory the system gets back, not a gap in its heap.
 */
const BLOCK_BYTES = 1 << 23;

/**
 * Reads a stream (through `decoder`, e.g. a decompressor, when given) to its end, counting the
 * bytes as they come out: past `maxBytes` it stops at once and destroys the streams (for a
 * response, that aborts the request), so a body that never ends or inflates without bound is
 * never held whole. The bytes are hashed as they come: an answer is known by its hash (the
 * cache's fingerprint) without keeping its bytes.
 * @throws the error of `tooLarge()` past the limit, else the streams' own error
 */
export async function readAtMost(source: NodeJS.ReadableStream, decoder: Transform | undefined, maxBytes: number, tooLarge: () => Error): Promise<ReadBody> {
  const blocks: Buffer[] = [];
  let pieces: Buffer[] = [];
  let pending = 0;
  const hasher = pieceHasher();
  let size = 0;
  let overflow: Error | undefined;
  // A caller's standard input may give text (a stream with an encoding, Readable.from(strings)).
  const collect = async (decoded: AsyncIterable<Buffer | string>) => {
    for await (const piece of decoded) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      size += chunk.length;
      if (size > maxBytes) throw (overflow = tooLarge());
      hasher.update(chunk);
      pieces.push(chunk);
      pending += chunk.length;
      // Joined into blocks: a decompressor's pieces are 16 KB.
      if (pending >= BLOCK_BYTES) {
        blocks.push(Buffer.concat(pieces, pending));
        pieces = [];
        pending = 0;
      }
    }
  };
  try {
    await (decoder ? pipeline(source, decoder, collect) : pipeline(source, collect));
  } catch (error) {
    // Leaving the loop destroys the streams before the pipeline hears why: it may then report
    // their AbortError instead of the reason.
    throw overflow ?? error;
  }
  if (pending > 0) blocks.push(Buffer.concat(pieces, pending));
  return { blocks, size, hash: hasher.digest() };
}

/**
 * Reads a file as {@link readAtMost} reads a stream. A regular file is read a block at a time
 * (refused at once when its size is past `maxBytes`). Anything else (a pipe, a device such as
 * /dev/zero) is streamed and counted.
 */
export async function readFileAtMost(path: string, maxBytes: number, tooLarge: () => Error): Promise<ReadBody> {
  const handle = await open(path);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return await readAtMost(createReadStream('', { fd: handle.fd, autoClose: false }), undefined, maxBytes, tooLarge);
    if (stat.size > maxBytes) throw tooLarge();
    const blocks: Buffer[] = [];
    const hasher = pieceHasher();
    let size = 0;
    for (;;) {
      // Of the size left, so a small file is not held in a block's worth of memory.
      const block = Buffer.allocUnsafe(stat.size > size ? Math.min(BLOCK_BYTES, stat.size - size) : BLOCK_BYTES);
      const { bytesRead } = await handle.read(block, 0, block.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw tooLarge();
      const read = block.subarray(0, bytesRead);
      hasher.update(read);
      blocks.push(read);
    }
    return { blocks, size, hash: hasher.digest() };
  } finally {
    await handle.close();
  }
}

/** A body's bytes in one buffer, for an answer read whole (a status page, a `getschema` answer). */
export function joinBlocks(body: { blocks: readonly Buffer[]; size: number }): Buffer {
  return Buffer.concat(body.blocks, body.size);
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

/**
 * Frees the memory of a block of a body at once, when the block is the whole of its memory (not
 * a slice of a shared pool): its bytes are gone, the block empty. The block of a large body was
 * read long before it is parsed, and V8 would otherwise free it only at its next full collection,
 * so a listing's bytes would all stay beside the descriptors parsed from them.
 */
export function releaseBlock(block: Buffer): void {
  const memory = block.buffer;
  if (!(memory instanceof ArrayBuffer) || block.byteOffset !== 0 || block.byteLength !== memory.byteLength || memory.byteLength === 0) return;
  // Transferred to a clone that is garbage at once, in the young generation.
  structuredClone(memory, { transfer: [memory] });
}
