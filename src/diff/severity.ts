import type { Severity } from './types.js';

/** All severities, worst first: the order of report groups and of sorted changes. */
export const SEVERITIES: readonly Severity[] = ['breaking', 'dangerous', 'safe'];

/** Orders severities worst first (negative when `a` is worse than `b`). */
export function compareSeverity(a: Severity, b: Severity): number {
  return SEVERITIES.indexOf(a) - SEVERITIES.indexOf(b);
}

/** The worst of some severities; `safe` for none (nothing differs, nothing can break). */
export function mostSevere(severities: Iterable<Severity>): Severity {
  let worst: Severity = 'safe';
  for (const severity of severities) {
    if (compareSeverity(severity, worst) < 0) worst = severity;
  }
  return worst;
}
