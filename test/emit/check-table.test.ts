import { describe, expect, it } from 'vitest';
import { FIELD } from '../../src/emit/check-table.js';
import * as runtime from '../../runtime/records-runtime.js';

describe('the check table the emitter writes', () => {
  it("names the field kinds as the records runtime reads them (its FIELD, of which src/emit/check-table.ts is a copy)", () => {
    expect(FIELD).toEqual(runtime.FIELD);
  });
});
