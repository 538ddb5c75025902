/**
 * What the emit stage requires of the descriptors it prints, beyond what each source validated:
 * a library caller's descriptors are checked by the model's schema here (the fetch stage and the
 * lockfile validate their own, once), and no two message types may share a number. A wrong value
 * would not fail loudly but print as broken or misleading code.
 */
import { descriptorSchema, type Descriptor } from '../model/descriptor.js';
import { EmitError } from '../model/errors.js';
import { showName } from './naming.js';
import { jsonText } from '../text/safe-text.js';
import { joinMessages, messageText, msg, own, type Message } from '../model/message.js';

const HINT = msg`Run schema-sync pull to rebuild the lockfile from the service, or fix the descriptor.`;

/**
 * Checks descriptors a library caller hands to `emit` against the model's schema (the field
 * table's stored forms: an optional field may be absent, not null).
 *
 * @param descriptors - sorted by name.
 * @throws EmitError naming each message type and field that is not as the model holds it.
 */
export function checkCallerDescriptors(descriptors: readonly Descriptor[]): void {
  const problems: Message[] = [];
  descriptors.forEach((descriptor, index) => {
    const result = descriptorSchema.safeParse(descriptor);
    if (result.success) return;
    // The input is sorted by name, so the name says more than a position would.
    const where =
      typeof descriptor.name === 'string' && descriptor.name !== '' ? msg`Message type ${showName(descriptor.name)}` : msg`Message type number ${index + 1} (sorted by name)`;
    for (const issue of result.error.issues) {
      // The whole field's value, also when one element of a list is wrong.
      const field = String(issue.path[0] ?? '(descriptor)');
      const value: unknown = issue.path.length === 0 ? descriptor : (descriptor as Record<string, unknown>)[field];
      problems.push(msg`${where}: field ${own(field)} ${own(issue.message)}, got ${jsonText(value)}.`);
    }
  });
  // One wrong value can break two checks with the same wording (-1.5): say it once.
  if (problems.length > 0) throw new EmitError(joinMessages([...new Map(problems.map((problem) => [messageText(problem), problem])).values()], '\n'), { hint: HINT });
}

/**
 * Refuses two message types with the same `mNum`: the registry by number keys them by it. The
 * fetch stage refuses such a listing; a lockfile may hold one after a merge (pull repairs it).
 *
 * @param descriptors - sorted by name.
 * @throws EmitError naming both messages.
 */
export function checkUniqueNumbers(descriptors: ReadonlyArray<Pick<Descriptor, 'name' | 'mNum'>>): void {
  const byNumber = new Map<number, string>();
  for (const descriptor of descriptors) {
    const other = byNumber.get(descriptor.mNum);
    if (other !== undefined) {
      throw new EmitError(msg`Message types ${showName(other)} and ${showName(descriptor.name)} have the same mNum ${descriptor.mNum}.`, {
        hint: msg`Each message number must be unique; check the listing or the lockfile.`,
      });
    }
    byNumber.set(descriptor.mNum, descriptor.name);
  }
}
