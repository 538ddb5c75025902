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
 * character (code point), everything else literal and case-sensitive, as message names are.
 *
 * Linear in the name's length: the glob is cut at its stars into pieces, the first piece must
 * begin the name, the last must end it, and each piece between is taken at its first place after
 * the one before (taking the first place never loses a match, because a star can swallow
 * whatever the later pieces skip). A regular expression of `.*` runs backtracks instead: one
 * long name from a server made `*Order*Debug*` take minutes.
 */
export function globMatcher(glob: string): (text: string) => boolean {
  const pieces = glob.split('*').map((piece) => Array.from(piece));
  if (pieces.length === 1) {
    const only = pieces[0]!;
    return (text) => {
      const chars = Array.from(text);
      return chars.length === only.length && pieceAt(only, chars, 0);
    };
  }
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  const middle = pieces.slice(1, -1).filter((piece) => piece.length > 0);
  return (text) => {
    const chars = Array.from(text);
    if (chars.length < first.length + last.length || !pieceAt(first, chars, 0) || !pieceAt(last, chars, chars.length - last.length)) return false;
    let from = first.length;
    const end = chars.length - last.length;
    for (const piece of middle) {
      const at = indexOfPiece(piece, chars, from, end);
      if (at < 0) return false;
      from = at + piece.length;
    }
    return true;
  };
}

/** Whether `piece` (`?` matching any one character) stands in `chars` at `at`. */
function pieceAt(piece: readonly string[], chars: readonly string[], at: number): boolean {
  for (let i = 0; i < piece.length; i++) if (piece[i] !== '?' && piece[i] !== chars[at + i]) return false;
  return true;
}

/** The first place at or after `from` where `piece` stands wholly before `end`; -1 where there is none. */
function indexOfPiece(piece: readonly string[], chars: readonly string[], from: number, end: number): number {
  for (let at = from; at + piece.length <= end; at++) if (pieceAt(piece, chars, at)) return at;
  return -1;
}

/**
 * A test of whether a descriptor is in scope; everything is when the scope names nothing.
 * @example inScope({ include: ['Order*', { mToken: 'Trading' }], exclude: ['OrderDebug'] })
 */
export function inScope(scope: Scope): (descriptor: Pick<Descriptor, 'name' | 'mToken'>) => boolean {
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
