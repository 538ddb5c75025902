import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Reading a file a repository or an argument names (a lockfile, a `diff` argument, a template, an
 * `--impact` tsconfig, a config file): only a regular file, never more than a bound. Anything
 * else a path can name would hang or grow without end: a FIFO blocks its reader until a writer
 * comes, `/dev/zero` never ends, a sparse file claims gigabytes it does not hold. So the file is
 * opened without waiting (`O_NONBLOCK`: a FIFO opens at once), looked at through its descriptor
 * (what was opened is what is judged), and read only when it is a regular file no larger than
 * its bound; otherwise a {@link FileRefused} says why, and nothing was read.
 */

/** Most bytes read of each kind of file. */
export const READ_BOUNDS = {
  /** A lockfile (also a `diff` argument): a pull of 10,000 types with fields writes some 60 MB. */
  lockfile: 512 * 1024 * 1024,
  /** A template (banner, package README): a few lines. */
  template: 1024 * 1024,
  /** A TypeScript project's tsconfig. */
  tsconfig: 16 * 1024 * 1024,
  /** A config file (JSON). */
  config: 16 * 1024 * 1024,
} as const;

/** Why a file was not read; `code` as Node's errors name it where there is one (`ELOOP`, `EISDIR`), else `ENOTREG` or `EFBIG`. */
export class FileRefused extends Error {
  override readonly name = 'FileRefused';
  constructor(
    readonly code: 'ELOOP' | 'EISDIR' | 'ENOTREG' | 'EFBIG',
    readonly reason: string,
    readonly path: string,
  ) {
    super(reason);
  }
}

/** How to read: the bound, and whether a symbolic link at the path itself is refused (`O_NOFOLLOW`). */
export interface BoundedRead {
  maxBytes: number;
  noFollow?: boolean;
}

/** The bytes of the regular file at `path`, at most `maxBytes` of them; see the module's comment. Errors of the file system (ENOENT, EACCES) are thrown as they are. */
export async function readBoundedFile(path: string, how: BoundedRead): Promise<Buffer> {
  const handle = await open(path, openFlags(how)).catch((error: unknown) => {
    throw refusedLink(error, path, how);
  });
  try {
    const stat = await handle.stat();
    refuseUnlessRegular(stat, path, how.maxBytes);
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, how.maxBytes) + 1);
    let read = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read, null);
      if (bytesRead === 0) break;
      read += bytesRead;
      // A file that grows while it is read is judged by what it became.
      if (read > how.maxBytes) throw tooLarge(path, how.maxBytes);
      if (read === bytes.length) break;
    }
    return bytes.subarray(0, read);
  } finally {
    await handle.close();
  }
}

/** {@link readBoundedFile}, synchronous (for a reader that must be: the TypeScript compiler's host). */
export function readBoundedFileSync(path: string, how: BoundedRead): Buffer {
  let fd: number;
  try {
    fd = openSync(path, openFlags(how));
  } catch (error) {
    throw refusedLink(error, path, how);
  }
  try {
    const stat = fstatSync(fd);
    refuseUnlessRegular(stat, path, how.maxBytes);
    const bytes = Buffer.allocUnsafe(Math.min(stat.size, how.maxBytes) + 1);
    let read = 0;
    for (;;) {
      const bytesRead = readSync(fd, bytes, read, bytes.length - read, null);
      if (bytesRead === 0) break;
      read += bytesRead;
      if (read > how.maxBytes) throw tooLarge(path, how.maxBytes);
      if (read === bytes.length) break;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

function openFlags(how: BoundedRead): number {
  return constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (how.noFollow === true ? (constants.O_NOFOLLOW ?? 0) : 0);
}

function refusedLink(error: unknown, path: string, how: BoundedRead): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (how.noFollow === true && (code === 'ELOOP' || code === 'EMLINK')) return new FileRefused('ELOOP', 'it is a symbolic link, which is not followed', path);
  return error;
}

function refuseUnlessRegular(stat: Stats, path: string, maxBytes: number): void {
  if (stat.isDirectory()) throw new FileRefused('EISDIR', 'it is a folder, not a file', path);
  if (!stat.isFile()) throw new FileRefused('ENOTREG', `it is not a regular file but ${kindOf(stat)}`, path);
  if (stat.size > maxBytes) throw tooLarge(path, maxBytes);
}

function tooLarge(path: string, maxBytes: number): FileRefused {
  return new FileRefused('EFBIG', `it is larger than ${describeBytes(maxBytes)}, the most schema-sync reads of such a file`, path);
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'something other than a file';
}

/** `1 MiB`, `512 MiB`: a bound in its largest whole unit. */
function describeBytes(bytes: number): string {
  const units: Array<[number, string]> = [[1024 ** 3, 'GiB'], [1024 ** 2, 'MiB'], [1024, 'KiB']];
  const unit = units.find(([size]) => bytes >= size && bytes % size === 0);
  return unit === undefined ? `${bytes} bytes` : `${bytes / unit[0]} ${unit[1]}`;
}

/** A text without the byte order mark some Windows editors put before UTF-8: no part of the JSON or text after it. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
