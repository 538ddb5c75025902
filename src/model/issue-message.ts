import type { z } from 'zod';
import { joinMessages, msg, own, type Message } from './message.js';

/**
 * What a zod issue says, as a {@link Message}. The wording is the program's (a schema's own
 * messages, zod's fixed ones); what it quotes came from outside and is kept apart to be masked:
 * the keys an unknown-key issue names, and each occurrence of the issue's input (present when
 * the value was parsed with `reportInput`), e.g. the id in "unknown rule id "x"". A record key's
 * own problems (an unknown rule id) say more than "Invalid key in record".
 */
export function issueMessage(issue: z.core.$ZodIssue): Message {
  if (issue.code === 'invalid_key') return joinMessages(issue.issues.map(issueMessage), '; ');
  if (issue.code === 'unrecognized_keys') {
    // zod's own wording, with each key a value.
    return msg`Unrecognized ${own(issue.keys.length > 1 ? 'keys' : 'key')}: ${joinMessages(issue.keys.map((key) => msg`"${key}"`), ', ')}`;
  }
  const input = 'input' in issue ? issue.input : undefined;
  if (typeof input !== 'string' || input === '') return own(issue.message);
  const template = issue.message.split(input);
  return { template, values: template.slice(1).map(() => input) };
}
