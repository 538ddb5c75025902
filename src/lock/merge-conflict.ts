/**
 * A lockfile that git left with merge conflict markers. Its current branch's side ("ours", from
 * `<<<<<<<` to `=======`, or to `|||||||` in diff3 style) is a baseline `pull` can diff against.
 */
export interface MergeConflict {
  /** The text with every conflict replaced by its current branch's side. */
  ours: string;
  /** The line (1-based) of the first conflict marker. */
  line: number;
}

/** The conflict in `text`, or undefined when it has no conflict markers. */
export function findMergeConflict(text: string): MergeConflict | undefined {
  // Marker lines may end in \r: a lockfile checked out with CRLF line ends (core.autocrlf).
  if (!/^<{7}(?: |\r?$)/m.test(text)) return undefined;
  const ours: string[] = [];
  let side: 'none' | 'ours' | 'base' | 'theirs' = 'none';
  let line = 0;
  const lines = text.split('\n');
  lines.forEach((current, index) => {
    if (/^<{7}(?: |\r?$)/.test(current)) {
      side = 'ours';
      line ||= index + 1;
    } else if (side === 'ours' && /^\|{7}(?: |\r?$)/.test(current)) side = 'base';
    else if (side !== 'none' && /^={7}\r?$/.test(current)) side = 'theirs';
    else if (side === 'theirs' && /^>{7}(?: |\r?$)/.test(current)) side = 'none';
    else if (side === 'none' || side === 'ours') ours.push(current);
  });
  return { ours: ours.join('\n'), line };
}
