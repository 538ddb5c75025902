/**
 * What each destination of a report takes, and the one way a report is cut to fit it: whole items
 * left out from the end of a priority order (the summary first, the worst changes next), and one
 * last line saying what was left out. The JSON report is never cut: it is where everything is.
 */

/** How long a report may be where it goes, in characters (UTF-16 code units, never fewer than characters). */
export const REPORT_LIMITS = {
  /**
   * A markdown report: a pull-request body or a step summary. GitHub refuses a body over 65,536
   * characters; the rest is room for what a workflow writes around the report.
   */
  markdown: 60_000,
  /** One changelog section (CHANGELOG.md, and the lockfile that records it), per pull. */
  changelog: 20_000,
  /** One annotation's message: the runner cuts a longer one at 4,096 characters. */
  annotation: 4_000,
  /** One change's cell of the markdown table, so that one type with many field changes leaves room for the others. */
  cell: 4_000,
} as const;

/** Annotations of each kind (error, warning, notice) GitHub shows per step; it drops the rest. */
export const ANNOTATIONS_SHOWN = 10;

/**
 * One part of a report. Without a `noun` it is kept whole whatever the budget (a heading, the
 * summary line). With one, its items can be left out from the end; its `head` and `tail` are kept
 * with its first item, and the section goes when none is kept.
 */
export interface ReportSection {
  /** Before the items, e.g. a heading or a table's header. */
  head?: string;
  items?: readonly string[];
  /** After the items, e.g. a hint. */
  tail?: string;
  /**
   * How much each item matters, lower first (e.g. a field change's severity), when not all of the
   * section fits: the items kept are those of the lowest ranks, still shown in the order given.
   * @default the order given
   */
  ranks?: readonly number[];
  /** What one item is, for the count of what was left out: `change`, `stale file`. */
  noun?: string;
}

/** How many items of one noun were left out. */
export interface LeftOut {
  noun: string;
  count: number;
}

/** How {@link fitToBudget} joins and measures. */
export interface BudgetOptions {
  /** The most the text may take, measured by `size`. */
  limit: number;
  /** Between sections (the lines of a section are joined by a line break). */
  separator: string;
  /** The last line when something was left out: what, as counted per noun. */
  leftOut: (left: readonly LeftOut[]) => string;
  /** How a piece of text is measured where it goes (e.g. escaped). @default its length */
  size?: (text: string) => number;
}

/**
 * The sections as one text within `options.limit`: all of it when it fits; else every section
 * without a noun, then the items in the order given while they fit, and the line `leftOut` makes
 * from what was left out. Items are whole or absent, never cut in the middle, and what is kept is a
 * prefix of the order given (within a section, of its `ranks` when it has them), so the caller's
 * order is the priority. Only sections kept whole that exceed the limit on their own can make the
 * text exceed it.
 */
export function fitToBudget(sections: readonly ReportSection[], options: BudgetOptions): string {
  const { limit, separator, leftOut } = options;
  const size = options.size ?? ((text: string) => text.length);
  const whole = sections.map((section) => ({ section, items: section.items ?? [] }));
  const full = join(whole, separator);
  if (size(full) <= limit) return full;

  // The line with every count is at least as long as the one written, so reserving it is enough.
  const everything = countByNoun(whole.flatMap(({ section, items }) => (section.noun === undefined ? [] : items.map(() => section.noun!))));
  let room = limit - size(join([...whole.filter(({ section }) => section.noun === undefined), { section: { head: leftOut(everything) }, items: [] }], separator));
  const left: string[] = [];
  /** The items of a section that fit in the room left, in the order given; every other one counted as left out. */
  const fitting = (section: ReportSection, items: readonly string[]): string[] => {
    const order = items.map((_, index) => index);
    const { ranks } = section;
    if (ranks !== undefined) order.sort((a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0) || a - b);
    const chosen = new Set<number>();
    for (const index of order) {
      // The first item of a section brings its head, tail and separator along.
      const cost = chosen.size > 0 ? size(`\n${items[index]!}`) : size(separator) + size(lines({ ...section, items: [items[index]!] }));
      if (left.length === 0 && cost <= room) {
        chosen.add(index);
        room -= cost;
      } else {
        left.push(section.noun!);
      }
    }
    return items.filter((_, index) => chosen.has(index));
  };
  const shown = whole.map(({ section, items }) => ({ section, items: section.noun === undefined ? items : fitting(section, items) }));
  return join([...shown, { section: { head: leftOut(countByNoun(left)) }, items: [] }], separator);
}

/** Sections with the items to show, as text; a section of items without any is left out. */
function join(parts: readonly { section: ReportSection; items: readonly string[] }[], separator: string): string {
  return parts
    .filter(({ section, items }) => section.noun === undefined || items.length > 0)
    .map(({ section, items }) => lines({ ...section, items }))
    .join(separator);
}

/** A section's head, items and tail, one line (or block) each. */
function lines(section: ReportSection): string {
  return [section.head, ...(section.items ?? []), section.tail].filter((line) => line !== undefined).join('\n');
}

/** Nouns counted, in the order each first appears. */
function countByNoun(nouns: readonly string[]): LeftOut[] {
  const counts = new Map<string, number>();
  for (const noun of nouns) counts.set(noun, (counts.get(noun) ?? 0) + 1);
  return [...counts].map(([noun, count]) => ({ noun, count }));
}

/** One workflow command of a report, and what GitHub counts it as. */
export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  line: string;
  /** Kept before those of a higher rank when not all of its kind are shown. @default 0 */
  rank?: number;
}

/**
 * The annotations GitHub shows: at most {@link ANNOTATIONS_SHOWN} of each kind, those of the
 * lowest `rank` first, then the first ones in the order given, shown in that order. When any were
 * left out, one `notice` less, and `summary` (made from the counts left out per kind) is the last
 * notice, so that the run's page says how many more there are.
 */
export function fitAnnotations(annotations: readonly Annotation[], summary: (left: readonly LeftOut[]) => Annotation): Annotation[] {
  const total = countByNoun(annotations.map((annotation) => annotation.kind));
  if (total.every(({ count }) => count <= ANNOTATIONS_SHOWN)) return [...annotations];
  const room: Record<Annotation['kind'], number> = { error: ANNOTATIONS_SHOWN, warning: ANNOTATIONS_SHOWN, notice: ANNOTATIONS_SHOWN - 1 };
  const byRank = annotations.map((_, index) => index).sort((a, b) => (annotations[a]!.rank ?? 0) - (annotations[b]!.rank ?? 0) || a - b);
  const shown = new Set<number>();
  for (const index of byRank) {
    const { kind } = annotations[index]!;
    if (room[kind] === 0) continue;
    room[kind] -= 1;
    shown.add(index);
  }
  const left = countByNoun(annotations.filter((_, index) => !shown.has(index)).map((annotation) => annotation.kind));
  return [...annotations.filter((_, index) => shown.has(index)), summary(left)];
}
