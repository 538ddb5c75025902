/**
 * A field table with two rows of one name is refused as its module loads: the descriptor field
 * table and the `FieldDesc` key table hold their rows through `namedOnce`, and a table with a
 * row repeated (as a pasted row whose name was not changed) throws.
 */
import { describe, expect, it } from 'vitest';
import { DESCRIPTOR_FIELDS } from '../../src/model/descriptor-fields.js';
import { FIELD_COLUMNS } from '../../src/model/field-columns.js';
import { namedOnce } from '../../src/model/named-once.js';

describe('namedOnce', () => {
  it('keeps the rows of the real tables as they are', () => {
    expect(namedOnce('descriptor field', DESCRIPTOR_FIELDS)).toBe(DESCRIPTOR_FIELDS);
    expect(namedOnce('FieldDesc key', FIELD_COLUMNS)).toBe(FIELD_COLUMNS);
  });

  it.each([
    { table: 'descriptor field', rows: DESCRIPTOR_FIELDS, twice: 'mToken', want: /^the descriptor field table names the field "mToken" twice \(rows 9 and 11\)/ },
    { table: 'FieldDesc key', rows: FIELD_COLUMNS, twice: 'fType', want: /^the FieldDesc key table names the field "fType" twice \(rows 4 and 9\)/ },
  ])('refuses the $table table with a second "$twice" row', ({ table, rows, twice, want }) => {
    const pasted = { ...rows.find((row) => row.name === twice)!, doc: 'pasted' };
    expect(() => namedOnce(table, [...rows, pasted])).toThrow(want);
  });
});
