/**
 * A table of named rows (the descriptor field table, the `FieldDesc` key table), checked to name
 * each field once: a second row with a name already taken would be shadowed wherever rows are
 * looked up by name and doubled wherever they are listed (the lockfile's key order, the
 * generated constant), so the module that holds the table refuses it as it loads.
 * @param table what the rows are, for the message
 * @returns the rows as given
 * @throws Error naming the field and the table when two rows share a name
 */
export function namedOnce<const Rows extends ReadonlyArray<{ readonly name: string }>>(table: string, rows: Rows): Rows {
  const seen = new Set<string>();
  for (const [index, row] of rows.entries()) {
    if (seen.has(row.name)) {
      const first = rows.findIndex((other) => other.name === row.name);
      throw new Error(`the ${table} table names the field "${row.name}" twice (rows ${first + 1} and ${index + 1}): a field is one row; merge them or rename one.`);
    }
    seen.add(row.name);
  }
  return rows;
}
