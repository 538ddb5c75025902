import { sortDescriptors, type Descriptor } from '../model/descriptor.js';
import { fieldChanges } from './field-changes.js';
import { rate } from './rate.js';
import type { ChangeFact, ReportedChange } from './types.js';

/**
 * The changes between the locked and the fetched descriptors, rated by every rule's default
 * severity: {@link compareDescriptors}, then {@link rate} with the default policy (a report rates
 * them as the project's config says instead).
 *
 * @returns the changes sorted by severity (breaking first), then by name; `[]` when in sync.
 * @example
 * diffDescriptors({ locked: lock.messages, fetched: await fetchDescriptors(options) })
 */
export function diffDescriptors(input: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] }): ReportedChange[] {
  return rate(compareDescriptors(input)).changes;
}

/**
 * Compares the locked descriptors with the fetched ones into facts: what changed, each field
 * change named by its rule, nothing rated yet. Pure: no I/O, inputs untouched.
 *
 * Message types are matched by name: a surviving type whose `mNum` moved is `changed` (field
 * `mNum`, breaking). A locked name that is gone, whose `mNum` reappears under a name the
 * lockfile does not know (and no surviving type uses), is one `renamed` change rather than a
 * `removed` plus an `added` (buf and prisma report moves the same way; two entries would
 * double-count it).
 * Names are unique within each list (a lockfile's are its keys; the fetch stage refuses
 * duplicate names and `mNum`s in a listing); should they not be, the first by name wins.
 *
 * @returns the changes, removed and renamed types by locked name first, then the added ones by
 *   name (the rating step puts them in report order); `[]` when in sync.
 */
export function compareDescriptors(input: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] }): ChangeFact[] {
  const locked = byName(input.locked);
  const fetched = byName(input.fetched);
  const changes: ChangeFact[] = [];

  // Fetched message types the lockfile has never seen: added, or the new name of a rename.
  const fresh = [...fetched.values()].filter((descriptor) => !locked.has(descriptor.name));
  // Numbers move between deployments: a number a surviving type uses now is its own (its mNum
  // change is reported on it), never the evidence of a rename.
  const surviving = new Set([...fetched.values()].filter((descriptor) => locked.has(descriptor.name)).map((d) => d.mNum));
  const claimed = new Set<string>();

  for (const before of locked.values()) {
    const after = fetched.get(before.name);
    // The same object on both sides (a lockfile entry whose text did not change): no changes.
    if (after === before) continue;
    if (after) {
      const fields = fieldChanges({ before, after });
      if (fields.length > 0) changes.push({ kind: 'changed', name: after.name, fields });
      continue;
    }
    const renamedTo = surviving.has(before.mNum)
      ? undefined
      : fresh.find((candidate) => candidate.mNum === before.mNum && !claimed.has(candidate.name));
    if (renamedTo) {
      claimed.add(renamedTo.name);
      changes.push(renamed({ before, after: renamedTo }));
    } else {
      changes.push({ kind: 'removed', name: before.name, before: { mNum: before.mNum } });
    }
  }

  for (const after of fresh.filter((candidate) => !claimed.has(candidate.name))) {
    changes.push({ kind: 'added', name: after.name, after: { mNum: after.mNum } });
  }
  return changes;
}

/** The `renamed` change; its fields start with `name` because `KNOWN_FIELDS` does. */
function renamed(pair: { before: Descriptor; after: Descriptor }): ChangeFact {
  const fields = fieldChanges(pair);
  return {
    kind: 'renamed',
    name: pair.after.name,
    before: { name: pair.before.name, mNum: pair.before.mNum },
    after: { name: pair.after.name, mNum: pair.after.mNum },
    fields,
  };
}

/** Descriptors by name, in name order (so pairing renames does not depend on input order). */
function byName(descriptors: readonly Descriptor[]): Map<string, Descriptor> {
  const map = new Map<string, Descriptor>();
  for (const descriptor of sortDescriptors(descriptors)) {
    if (!map.has(descriptor.name)) map.set(descriptor.name, descriptor);
  }
  return map;
}
