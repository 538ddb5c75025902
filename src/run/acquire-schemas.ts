import { fetchSchemas } from '../fetch/index.js';
import type { LockfileText } from '../lock/index.js';
import type { Descriptor } from '../model/descriptor.js';
import { ConfigError } from '../model/errors.js';
import type { FieldDescriptor } from '../model/field.js';
import type { GenerationSettings } from '../model/lockfile.js';
import { scoped } from '../model/scope.js';
import { serviceOptions, type Answer } from './acquire-listing.js';
import type { SourceOptions } from './options.js';
import type { RunContext } from './run-context.js';
import { msg, own } from '../model/message.js';

/**
 * The answer with every message type's fields when `settings` has fields on: a type whose
 * `schemaHash` is the one `before` records, with fields recorded, keeps them; every other type
 * (new, changed hash, or no fields recorded yet) gets them from the service (`cmd=getschema`, a
 * few at a time, all or nothing). Types out of scope (`include`/`exclude`) are not asked for:
 * they are neither generated nor reviewed; they keep the fields their entries record while their
 * `schemaHash` stays, and have none once it changes. An answer with fields off is given back
 * as it is.
 * Warnings of the requests go to the run now; the answer's own stay its own.
 */
export async function acquireSchemas(run: RunContext, answer: Answer, before: LockfileText | undefined, settings: GenerationSettings, options: SourceOptions): Promise<Answer> {
  if (settings.fields !== true) return answer;
  const listing = answer.parse();
  const locked = new Map((before?.parse().messages ?? []).map((descriptor) => [descriptor.name, descriptor]));
  const recordedFields = (descriptor: Descriptor): FieldDescriptor[] | undefined => {
    const old = locked.get(descriptor.name);
    return old?.schemaHash === descriptor.schemaHash ? old.fields : undefined;
  };
  const inScope = scoped(listing.descriptors, { include: settings.include, exclude: settings.exclude });
  const names = inScope.filter((descriptor) => recordedFields(descriptor) === undefined).map((descriptor) => descriptor.name);
  if (names.length > 0 && !options.baseUrl) {
    throw new ConfigError(msg`fields are on, and ${names.length} message ${own(names.length === 1 ? 'type needs its' : 'types need their')} field descriptors from the service, but there is no base URL.`, {
      hint: msg`--input reads only the listing: pass --base-url (or SCHEMA_SYNC_BASE_URL) for cmd=getschema, or pull with --no-fields.`,
      setting: 'baseUrl',
    });
  }
  const fetched = await fetchSchemas({ ...serviceOptions(options, options.baseUrl ?? ''), names });
  // Masked already (fetchSchemas is a library entry point): the run tells them as they are.
  for (const warning of fetched.warnings) run.warn(own(warning));
  const descriptors = listing.descriptors.map((descriptor) => ({ ...descriptor, fields: fetched.fields.get(descriptor.name) ?? recordedFields(descriptor) }));
  const withFields = { ...listing, descriptors };
  return { ...answer, parse: () => withFields };
}
