import type { PullResult } from '../run/pull.js';

/** The one-line end of a pull: "264 types · 3 changed, 1 added · 5 files written in 0.4 s". */
export function pullSummary(result: PullResult, ms: number): string {
  const { summary } = result.report;
  const parts: string[] = [];
  if (summary.changed) parts.push(`${summary.changed} changed`);
  if (summary.added) parts.push(`${summary.added} added`);
  if (summary.removed) parts.push(`${summary.removed} removed`);
  if (summary.renamed) parts.push(`${summary.renamed} renamed`);
  const changes = parts.length > 0 ? parts.join(', ') : 'no changes';
  const time = `${(ms / 1000).toFixed(1)} s`;
  if (!result.write) return `${result.messageCount} types · ${changes} · dry run, nothing written (${time})`;
  const files = result.write.written.length;
  const deleted = result.write.deleted.length ? `, ${result.write.deleted.length} deleted` : '';
  return `${result.messageCount} types · ${changes} · ${files} ${files === 1 ? 'file' : 'files'} written${deleted} in ${time}`;
}
