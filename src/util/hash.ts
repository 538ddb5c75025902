import { createHash, hash } from 'node:crypto';

/**
 * The one hash schema-sync takes of anything it compares or keys by (file bytes, input
 * fingerprints, lockfile and manifest texts, cache keys): SHA-256 in hex, cut to 24 characters
 * (96 bits: no accidental collision among the files of any folder, and short in the manifest).
 */
export function hashOf(content: string | Uint8Array): string {
  if (typeof content !== 'string' || content.length <= TEXT_PIECE) return shortHex(hash('sha256', content, 'hex'));
  // A large text (a lockfile of a large listing) is hashed a piece at a time: hashed whole, it
  // would first be copied into one more buffer of its size. Each piece is handed over as text,
  // which crypto encodes into memory it frees at once (a Buffer of each would wait for a GC).
  return hashOfPieces([content]);
}

/** Characters of a large text hashed or written at a time. */
const TEXT_PIECE = 1 << 20;

/**
 * A text in pieces of about {@link TEXT_PIECE} characters whose UTF-8 encodings, run together,
 * are the text's: a piece never ends between the halves of a surrogate pair (encoded apart, each
 * would become U+FFFD).
 */
export function* textPieces(text: string): Generator<string> {
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + TEXT_PIECE, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    yield text.slice(at, end);
    at = end;
  }
}

/**
 * {@link hashOf} of content that comes in pieces (a body as it streams in): `update` each piece
 * in order, then `digest` gives the hash of the pieces run together.
 */
export function pieceHasher(): { update(piece: Uint8Array | string): void; digest(): string } {
  const hasher = createHash('sha256');
  return { update: (piece) => void hasher.update(piece), digest: () => shortHex(hasher.digest('hex')) };
}

/**
 * The first 24 characters of a digest's hex, a string of its own: a slice of the hex would keep
 * all 64 characters alive with it (a plan and manifest of 100,000 types hold two hashes a type).
 * Joined from halves shorter than V8 slices: a flat copy, made as fast as the slice.
 */
function shortHex(hex: string): string {
  return [hex.slice(0, 12), hex.slice(12, 24)].join('');
}

/** {@link hashOf} of several parts, kept apart (a part never runs into the next). */
export function hashOfParts(parts: ReadonlyArray<string | null | undefined>): string {
  return hashOf(JSON.stringify(parts));
}

/** A text together with its {@link hashOf}: computed once, carried along. */
export interface HashedText {
  readonly text: string;
  readonly hash: string;
}

/** {@link hashOf} of the text that `pieces` make run together; no piece may end between the halves of a surrogate pair (each would be hashed as U+FFFD). */
export function hashOfPieces(pieces: Iterable<string>): string {
  const hasher = pieceHasher();
  for (const piece of pieces) for (const part of textPieces(piece)) hasher.update(part);
  return hasher.digest();
}
