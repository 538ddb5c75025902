/**
 * Markdown primitives for text a server controls. Values are escaped to one line before they
 * get here (see `format-value.ts`), so only markdown's own syntax is left to neutralise.
 */

/**
 * An inline code span holding `text` literally: a fence longer than any backtick run inside,
 * and padding when the text starts or ends with a backtick or space (CommonMark strips one
 * space on each side). Inside a code span nothing is markup: no links, mentions or HTML.
 */
export function codeSpan(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = /^[` ]|[` ]$/.test(text) ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Makes text safe as a table cell: GitHub splits cells on `|` even inside code spans (and
 * renders `\|` there as `|`), and a line break would end the row.
 */
export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, '<br>');
}
