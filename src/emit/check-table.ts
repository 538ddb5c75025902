/**
 * The shape of a message type's check table as the records runtime reads it (`CheckTable`,
 * `CheckField` and `FIELD` of `runtime/records-runtime.ts`, which `tableCheck` interprets). The
 * runtime is a module of the output folder, outside the build of `src/`: these are its copy, held
 * equal to it by test/emit/check-table.test.ts.
 */

/** One field of a check table: `[name, kind]`, `[name, kind, arg]`, or a key field's `[name, kind, arg, default]`. */
export type CheckField = readonly [name: string, kind: number, arg?: unknown, fallback?: unknown];

/** A message type's check table: its record's fields, its key's, its groups', its enum sets. */
export interface CheckTable {
  readonly f: readonly CheckField[];
  readonly k?: readonly CheckField[];
  readonly g?: readonly (readonly [string, readonly CheckField[]])[];
  readonly e?: readonly (readonly string[])[];
}

/** The kinds of field of a check table (the runtime's `FIELD`, which says what each checks). */
export const FIELD = {
  ANY: 0,
  TEXT: 1,
  DOUBLE: 2,
  INT: 3,
  UINT: 4,
  RANGE: 5,
  LONG_NUMBER: 6,
  LONG_BIGINT: 7,
  LONG_STRING: 8,
  ENUM: 9,
  ENUM_ANY: 10,
  FLAG: 11,
  SPAN: 12,
  KEY: 13,
  GROUP: 14,
  PKEY: 15,
} as const;
