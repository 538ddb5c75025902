/**
 * The actions of the service's flag enum `MLinkActions`, in bit order (Select = 1, Insert = 2,
 * Update = 4, Replace = 8, Delete = 16). Also the canonical order of a normalised `actions`
 * list: however the service wrote them (letters, names, a mask), known actions come in this order.
 */
export const KNOWN_ACTIONS = ['select', 'insert', 'update', 'replace', 'delete'] as const;

/** Action names the service encodes as the letters `SIURD`. */
export const ACTION_LETTERS = {
  S: 'select',
  I: 'insert',
  U: 'update',
  R: 'replace',
  D: 'delete',
} as const;
