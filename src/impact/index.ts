/**
 * Drift impact for library callers: the checker and ts-morph load on the first call, so
 * importing schema-sync stays as light as before.
 */
import type { ImpactOptions } from './impact.js';
import type { ImpactResult } from '../model/impact.js';

export type { GeneratedOutput, ImpactOptions } from './impact.js';
export type { BrokenUse, ImpactResult, MessageImpact, ReferencedUse, SourceLocation } from '../model/impact.js';

/**
 * Type-checks a TypeScript project against the generated output of two lockfiles (`before`,
 * `after`: the files `emit` gives for each) laid over `outputRoot`, and says which message types'
 * changes break its compile and where, which are used but still compile, and which are not used.
 * Nothing is written.
 *
 * @example
 * const result = await impact({ project: 'tsconfig.json', outputRoot: 'src/generated/schema', before: await emit(old), after: await emit(next) });
 * @throws ConfigError when the tsconfig does not exist or cannot be read
 */
export async function impact(options: ImpactOptions): Promise<ImpactResult> {
  const { impact: check } = await import('./impact.js');
  return check(options);
}
