import type { Descriptor } from '../model/descriptor.js';
import { isScoped, scoped, type Scope } from '../model/scope.js';
import type { ChangeFact } from './types.js';

/**
 * The changes about message types in scope on either side: a type that moves out of scope (its
 * token changed, say) is reported, for the project loses it. Out-of-scope types stay in the
 * lockfile; they only go unreported.
 */
export function changesInScope<C extends ChangeFact>(
  changes: readonly C[],
  sides: { locked: readonly Descriptor[]; fetched: readonly Descriptor[] },
  scope: Scope,
): C[] {
  if (!isScoped(scope)) return [...changes];
  const names = new Set(scoped([...sides.locked, ...sides.fetched], scope).map((descriptor) => descriptor.name));
  return changes.filter((change) => names.has(change.name) || (change.kind === 'renamed' && names.has(change.before.name)));
}
