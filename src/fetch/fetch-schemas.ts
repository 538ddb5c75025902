import { ConfigError, SchemaSyncError } from '../model/errors.js';
import { compareStrings } from '../model/descriptor.js';
import type { FieldDescriptor } from '../model/field.js';
import { withServiceRequests, type FetchOptions } from './fetch-descriptors.js';
import { answerJson } from './answer-body.js';
import { echoWarning } from './listing-response.js';
import { parseSchemaAnswer } from './schema-answer.js';
import { quoteString } from '../text/safe-text.js';
import { joinMessages, messageText, msg, own, type Message } from '../model/message.js';
import { createRedactor } from '../model/redact.js';

/** Options of {@link fetchSchemas}: where the service is and how to ask it, as for the listing. */
export interface FetchSchemasOptions extends Omit<FetchOptions, 'query' | 'allowTruncated'> {
  /** The message types whose fields to fetch, one `cmd=getschema&msgType=<name>` request each. */
  names: readonly string[];
  /** How many requests run at once. @default 4 */
  concurrency?: number;
}

/** The fields {@link fetchSchemas} fetched. */
export interface FetchedSchemas {
  /** Fields in record order, by message type name (every name asked for). */
  fields: Map<string, FieldDescriptor[]>;
  /** Things kept but worth telling, in the order of the names, outside text in them masked. */
  warnings: string[];
}

/** Requests at once unless told otherwise: a few, so a pull of many changed types is quick without flooding the service. */
const DEFAULT_CONCURRENCY = 4;

/**
 * Fetches the field descriptors of each of `names` (`GET {baseUrl}/rest/proto?cmd=getschema&msgType=<name>`),
 * a few at a time, with the listing's retries, timeouts, proxies and secret handling (echoed
 * secrets scrubbed, every error redacted). All or nothing: when one request or answer fails, no
 * new one starts, those in flight finish, and the failure of the first such name (in the order
 * given) is thrown.
 */
export async function fetchSchemas(options: FetchSchemasOptions): Promise<FetchedSchemas> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new ConfigError(msg`concurrency must be a positive integer, got ${String(concurrency)}.`, { hint: msg`Pass 1 or more (the default is 4).` });
  }
  const { names } = options;
  // The run's redactor, built here (as the requests would) when none is given: the warnings are masked with it.
  const redact = options.redact ?? createRedactor([options.apiKey, options.secret]);
  const answers: Array<{ fields: FieldDescriptor[]; warnings: Message[] }> = [];
  if (names.length > 0) {
    let done = 0;
    options.onEvent?.({ type: 'schemas', done, total: names.length });
    await withServiceRequests({ ...options, redact }, (get) =>
      forEachBounded(names, concurrency, async (msgType, index) => {
        try {
          const { response, shownUrl } = await get({ cmd: 'getschema', msgType });
          const { body, elements } = answerJson({ bytes: response.bytes, contentType: response.contentType }, shownUrl, redact);
          const parsed = parseSchemaAnswer(body, { origin: shownUrl, msgType });
          const echoed = elements.length > 0 ? [echoWarning(elements, msg`the getschema answer for ${quoteString(msgType)}`)] : [];
          answers[index] = { fields: parsed.fields, warnings: [...echoed, ...parsed.warnings] };
          options.onEvent?.({ type: 'schemas', done: ++done, total: names.length });
        } catch (error) {
          throw withWaysOut(error, msgType);
        }
      }),
    );
  }
  const fields = new Map(names.map((name, index) => [name, answers[index]!.fields]));
  const empty = names.filter((name) => fields.get(name)!.length === 0).sort(compareStrings);
  const warnings = answers.flatMap((answer) => answer.warnings);
  if (empty.length > 0) {
    const listed = msg`${joinMessages(empty.slice(0, 5).map((name) => msg`${quoteString(name)}`), ', ')}${own(empty.length > 5 ? ' …' : '')}`;
    const one = empty.length === 1;
    warnings.push(msg`getschema answered no fields for ${empty.length} message ${own(one ? 'type' : 'types')} (${listed}): ${own(one ? 'its record type is' : 'their record types are')} empty.`);
  }
  return { fields, warnings: warnings.map((warning) => messageText(warning, redact)) };
}

/**
 * `error`, the failure of the fields of `msgType`, with the two ways to pull the other types added
 * to its hint: the whole pull fails on one type, which its own hint alone does not say how to get past.
 */
function withWaysOut(error: unknown, msgType: string): unknown {
  if (!(error instanceof SchemaSyncError)) return error;
  return error.extendHint(msg`To pull the other types: add ${quoteString(msgType)} to "exclude" in the config (no code for it), or turn fields off (--no-fields, or "fields": false).`);
}

/**
 * Runs `work` on every item, at most `limit` at once (exported for its tests). When one fails, no further item starts;
 * once those running have settled, the failure of the lowest index is thrown (so the error does
 * not depend on timing).
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: Array<{ index: number; error: unknown }> = [];
  const worker = async (): Promise<void> => {
    while (failures.length === 0 && next < items.length) {
      const index = next++;
      try {
        await work(items[index]!, index);
      } catch (error) {
        failures.push({ index, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failures.length > 0) throw failures.reduce((first, failure) => (failure.index < first.index ? failure : first)).error;
}
