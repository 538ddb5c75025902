import type { Descriptor } from './descriptor.js';

/** One entry of `include` / `exclude`: a message-name glob, or `{ mToken }` (a glob of the token). */
export type ScopeRule = string | { mToken: string };

/**
 * Which message types a project generates and watches (config `include` / `exclude`): those that
 * match an `include` entry (every type when there is none) and no `exclude` entry.
 */
export interface Scope {
  include?: readonly ScopeRule[] | undefined;
  exclude?: readonly ScopeRule[] | undefined;
}

/**
 * A matcher of a glob over a whole name: `*` any run of characters (`/` included), `?` one
 * character, everything else literal and case-sensitive, as message names are.
 */
export function globMatcher(glob: string): (text: string) => boolean {
  const source = glob.replace(/[.*+?^${}()|[\]\\]/g, (char) => (char === '*' ? '.*' : char === '?' ? '.' : `\\${char}`));
  const pattern = new RegExp(`^${source}$`, 'su');
  return (text) => pattern.test(text);
}

/**
 * A test of whether a descriptor is in scope; everything is when the scope names nothing.
 * @example inScope({ include: ['Order*', { mToken: 'Trading' }], exclude: ['OrderDebug'] })
 */
function inScope(scope: Scope): (descriptor: Pick<Descriptor, 'name' | 'mToken'>) => boolean {
  const include = (scope.include ?? []).map(ruleMatcher);
  const exclude = (scope.exclude ?? []).map(ruleMatcher);
  return (descriptor) => (include.length === 0 || include.some((matches) => matches(descriptor))) && !exclude.some((matches) => matches(descriptor));
}

/** Whether a scope narrows anything at all. */
export function isScoped(scope: Scope): boolean {
  return (scope.include?.length ?? 0) + (scope.exclude?.length ?? 0) > 0;
}

/** The descriptors in scope, in their order. */
export function scoped<D extends Pick<Descriptor, 'name' | 'mToken'>>(descriptors: readonly D[], scope: Scope): D[] {
  return isScoped(scope) ? descriptors.filter(inScope(scope)) : [...descriptors];
}

function ruleMatcher(rule: ScopeRule): (descriptor: Pick<Descriptor, 'name' | 'mToken'>) => boolean {
  if (typeof rule === 'string') {
    const matches = globMatcher(rule);
    return (descriptor) => matches(descriptor.name);
  }
  const matches = globMatcher(rule.mToken);
  return (descriptor) => typeof descriptor.mToken === 'string' && matches(descriptor.mToken);
}
