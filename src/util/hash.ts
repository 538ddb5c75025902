import { hash } from 'node:crypto';

/**
 * The one hash schema-sync takes of anything it compares or keys by (file bytes, input
 * fingerprints, lockfile and manifest texts, cache keys): SHA-256 in hex, cut to 24 characters
 * (96 bits: no accidental collision among the files of any folder, and short in the manifest).
 */
export function hashOf(content: string | Uint8Array): string {
  return hash('sha256', content, 'hex').slice(0, 24);
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
