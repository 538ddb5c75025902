/**
 * How deep one descriptor may nest, counting the element (or lockfile entry) itself as level 1:
 * far beyond any real descriptor (their unknown fields nest two or three levels), and shallow
 * enough that the recursive code after validation (secret scrubbing, key sorting, the lockfile
 * printer, canonical JSON, hashing) never runs out of stack.
 */
export const MAX_NESTING = 64;

/** A container on the walk, and how it was reached. */
interface Visit {
  value: object;
  depth: number;
  key: string;
  parent: Visit | undefined;
}

/**
 * Where `value` nests deeper than `limit` levels (objects and arrays, `value` being level 1): the
 * keys from `value` down to the first container past the limit; undefined when it does not.
 * Walks with its own stack, as it exists to refuse what would overflow the call stack.
 */
export function tooDeep(value: unknown, limit = MAX_NESTING): string[] | undefined {
  const stack: Visit[] = value !== null && typeof value === 'object' ? [{ value, depth: 1, key: '', parent: undefined }] : [];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (visit.depth > limit) {
      const path: string[] = [];
      for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) path.push(at.key);
      return path.reverse();
    }
    const record = visit.value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      // Only containers are visited: most values are strings and numbers, and cost nothing here.
      const child = record[key];
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return undefined;
}

/** A path of {@link tooDeep} for messages: its first keys, dotted, and `…` where it goes on. */
export function describeDeepPath(path: readonly string[], shown = 4): string {
  return path.length > shown ? `${path.slice(0, shown).join('.')}.…` : path.join('.');
}
