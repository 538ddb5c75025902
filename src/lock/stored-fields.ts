import { DESCRIPTOR_FIELDS } from '../model/descriptor-fields.js';

/** A known descriptor field as a lockfile entry holds it: every one but `name`, which is the entry's key. */
export type StoredRow = Exclude<(typeof DESCRIPTOR_FIELDS)[number], { name: 'name' }>;

/** The known fields of a lockfile entry, in the order it writes them (the field table's). */
export const STORED_FIELDS: readonly StoredRow[] = DESCRIPTOR_FIELDS.filter((row): row is StoredRow => row.name !== 'name');
