import type { Descriptor } from './descriptor.js';
import type { ListingSource } from './source.js';

/** The lockfile format version this build writes and reads. */
export const LOCKFILE_VERSION = 1;

/** The lockfile in memory: what a listing was, where it came from. */
export interface Lockfile {
  lockfileVersion: typeof LOCKFILE_VERSION;
  source: ListingSource;
  /** Descriptors sorted by name. */
  messages: Descriptor[];
}
