// The targets of issues 5 and 37 (10,000 types, medians of the whole CLI process on 2 cores), and how a
// bench row is judged against them. Rows without a target (the floor, generate, 1,000 types) get
// none.

/** Target per run label at 10,000 types: wall seconds, and what else must hold. */
const TARGETS = [
  { run: /^cold pull$/, seconds: 2.0, rssMb: 250 },
  { run: /^no-op pull$/, seconds: 0.5, written: () => [0, 0] },
  // "only those modules + index files written": the changed modules, plus index.ts and types.ts at most.
  { run: /^pull after (\d+) changes$/, seconds: 0.8, written: (changed) => [changed, changed + 2] },
  { run: /^check$/, seconds: 0.5 },
  { run: /^cold pull --prettier$/, seconds: 12.0 },
];

/** The target of a row, as text for the table ("≤ 2.0 s, ≤ 300 MB"), or undefined. */
export function targetOf(row) {
  if (row.size !== 10000) return undefined;
  for (const target of TARGETS) {
    const match = target.run.exec(row.run);
    if (match === null) continue;
    const parts = [`≤ ${target.seconds.toFixed(1)} s`];
    if (target.rssMb !== undefined) parts.push(`≤ ${target.rssMb} MB`);
    // Files written, as [fewest, most].
    const written = target.written?.(Number(match[1]));
    if (written !== undefined) parts.push(written[0] === written[1] ? `${written[0]} files` : `${written[0]}–${written[1]} files`);
    const met =
      row.median <= target.seconds &&
      (target.rssMb === undefined || row.peakRssMb <= target.rssMb) &&
      (written === undefined || (row.filesWritten >= written[0] && row.filesWritten <= written[1]));
    return { text: parts.join(', '), met };
  }
  return undefined;
}
