import { jsonText } from '../text/safe-text.js';

/**
 * Where a message type's entry stands in a lockfile in schema-sync's own layout (for
 * annotations that point into it).
 */

/** The line (1-based) of message `name`'s entry in a lockfile in schema-sync's layout; undefined when it has none. */
export function entryLine(text: string, name: string): number | undefined {
  const at = text.indexOf(`\n    ${jsonText(name)}: {`);
  return at < 0 ? undefined : text.slice(0, at + 1).split('\n').length;
}
