import { canonicalJson } from '../util/canonical-json.js';
import { hashOfParts } from '../util/hash.js';
import { isScoped } from '../model/scope.js';
import { formatPlan } from './format-plan.js';
import { plan, type PlanSettings } from './plan.js';

/**
 * A key of everything the plan of a lockfile depends on besides the lockfile's text: same
 * lockfile, same key, same files with the same inputs; a cache keyed by both may serve the plan
 * without making it. It is made of the plan of a one-type listing under these settings (its
 * paths and inputs change with every renderer, template, setting and prettier config that the
 * plan of any lockfile reads) and the scope, which decides which types a lockfile's plan holds.
 *
 * @throws EmitError as {@link plan} does for a bad package name or template.
 */
export async function planSettingsKey(settings: PlanSettings, prettierOutDir: string | undefined): Promise<string> {
  const { scope, ...unscoped } = settings;
  // With fields on, the sample has a 64-bit field: the only place the int64 setting shows.
  const sample = { name: 'Sample', mNum: 0, schemaHash: '', extra: {}, ...(settings.fields === true ? { fields: [{ name: 'sample', fType: 'Long', extra: {} }] } : {}) };
  const planned = await plan({ messages: [sample], source: { query: {} } }, unscoped);
  const files = prettierOutDir === undefined ? planned : await formatPlan(planned, prettierOutDir);
  // The scope only when set: the key of every output without one stays what it was.
  return hashOfParts(['schema-sync plan', ...files.flatMap((file) => [file.path, file.input]), ...(scope !== undefined && isScoped(scope) ? [canonicalJson(scope)] : [])]);
}
