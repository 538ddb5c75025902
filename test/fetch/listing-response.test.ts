/**
 * A listing response's outcome (descriptors, warnings, or the refusal with every issue, and
 * whether it echoes a secret) is the one of the whole body parsed, checked for depth, scrubbed
 * and then validated.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { echoWarning, listingResponse, type KnownElements } from '../../src/fetch/listing-response.js';
import { parseListing, refuseDeepNesting } from '../../src/fetch/parse-listing.js';
import { messageText } from '../../src/model/message.js';
import { createRedactor, redactDeep, type Redactor } from '../../src/model/redact.js';
import { hashOf } from '../../src/util/hash.js';

const SECRET = 'k3y-0f-the-run-abcdef';

/** A valid element with a description of `descLength` characters. */
function element(i: number, descLength: number): Record<string, unknown> {
  return {
    header: { msgType: 'MsgDesc' },
    message: { name: `Type${i}`, mNum: 1000 + i, schemaHash: `H${i}`, actions: 'SIU', hasTKey: 'No', staticFilterFields: 'a,b', desc: 'd'.repeat(descLength), pkey: {} },
  };
}

const nested = (depth: number): unknown => (depth === 0 ? 1 : { x: nested(depth - 1) });

/** Ways an element may be wrong, or worth a warning, or odd. */
const DAMAGE: Record<string, (e: Record<string, unknown>, i: number) => unknown> = {
  badNumber: (e) => ({ ...e, message: { ...(e['message'] as object), mNum: -1 } }),
  badFlag: (e) => ({ ...e, message: { ...(e['message'] as object), hasCF: 'maybe' } }),
  badActions: (e) => ({ ...e, message: { ...(e['message'] as object), actions: 'Selct' } }),
  unknownLetter: (e) => ({ ...e, message: { ...(e['message'] as object), actions: 'SX' } }),
  sameName: (e) => ({ ...e, message: { ...(e['message'] as object), name: 'Type0' } }),
  sameNumber: (e) => ({ ...e, message: { ...(e['message'] as object), mNum: 1000 } }),
  notObject: () => 42,
  noMessage: () => ({ header: { msgType: 'MsgDesc' } }),
  trailerOk: () => ({ header: { msgType: 'QueryResult' }, message: { result: 'Ok', numMessagesSent: 3 } }),
  trailerFailed: () => ({ header: { mTyp: 'QueryResult' }, message: { result: 'Error', detail: 'went wrong' } }),
  tooDeep: (e) => ({ ...e, message: { ...(e['message'] as object), deep: nested(70) } }),
  echoesSecret: (e) => ({ ...e, message: { ...(e['message'] as object), desc: `see ${SECRET} there` } }),
  reservedKey: (e) => ({ ...e, message: { ...(e['message'] as object), $file: 'x.ts' } }),
};

type Outcome = ({ descriptors: unknown; trailer: unknown; warnings: string[] } | { error: string; hint: string | undefined }) & { echoes?: boolean | 'refused' };

/** The answer read as a fetched one is, through its listing response. */
function streamed(text: string, redact: Redactor, limit: number | undefined, askEchoes = false): Outcome {
  const body = Buffer.from(text);
  const identity = { bodyHash: hashOf(body), contentType: 'application/json', limit, allowTruncated: false };
  const response = listingResponse({ source: { query: {} }, identity, body, origin: 'test', redact });
  // Asked first, as a run asks before it decides to read the answer.
  let echoes: Outcome['echoes'];
  if (askEchoes) {
    try {
      echoes = response.echoesSecrets();
    } catch {
      echoes = 'refused';
    }
  }
  const asked = askEchoes ? { echoes } : {};
  try {
    const { descriptors, trailer, warnings } = response.result();
    return { descriptors, trailer, warnings, ...asked };
  } catch (error) {
    return { error: (error as Error).message, hint: (error as { hint?: string }).hint, ...asked };
  }
}

/** The answer read as {@link streamed}, with the elements of `earlier` (a sound answer) known as a pull knows them; also how many it took as known. */
function knowing(text: string, earlier: string, redact: Redactor, limit: number | undefined): Outcome & { taken: number } {
  const respond = (body: Buffer, limit: number | undefined) => listingResponse({ source: { query: {} }, identity: { bodyHash: hashOf(body), contentType: 'application/json', limit, allowTruncated: false }, body, origin: 'test', redact });
  const parsed = respond(Buffer.from(earlier), undefined).parse();
  const byName = new Map(parsed.descriptors.map((descriptor) => [descriptor.name, descriptor]));
  const names = parsed.elementNames() ?? new Map<string, string>();
  let taken = 0;
  const known: KnownElements = (hash) => {
    const descriptor = byName.get(names.get(hash) ?? '');
    if (descriptor !== undefined) taken++;
    return descriptor;
  };
  const response = respond(Buffer.from(text), limit);
  try {
    const { descriptors, trailer, warnings } = response.parse(known);
    return { descriptors, trailer, warnings: warnings.map((warning) => messageText(warning, redact)), taken };
  } catch (error) {
    return { error: (error as Error).message, hint: (error as { hint?: string }).hint, taken };
  }
}

/** The same answer read whole: parsed, checked for depth, scrubbed, then validated. */
function whole(text: string, redact: Redactor, limit: number | undefined, askEchoes = false): Outcome {
  // echoesSecrets refuses only what the body is instead of elements (here: nested too deep).
  let asked: { echoes?: boolean | 'refused' } = askEchoes ? { echoes: 'refused' } : {};
  try {
    const body = JSON.parse(text) as unknown[];
    refuseDeepNesting(body, 'test');
    const echoed: number[] = [];
    const scrubbed = body.map((item, index) => {
      const clean = redactDeep(item, (value) => redact.data?.(value) ?? value);
      if (JSON.stringify(clean) !== JSON.stringify(item)) echoed.push(index);
      return clean;
    });
    if (askEchoes) asked = { echoes: echoed.length > 0 };
    const { descriptors, trailer, warnings } = parseListing(scrubbed, { origin: 'test', limit, allowTruncated: false });
    const all = echoed.length > 0 ? [echoWarning(echoed), ...warnings] : warnings;
    return { descriptors, trailer, warnings: all.map((warning) => messageText(warning, redact)), ...asked };
  } catch (error) {
    return { error: (error as Error).message, hint: (error as { hint?: string }).hint, ...asked };
  }
}

describe('a listing response', () => {
  it('gives what the whole body gives: the same descriptors and warnings, or the same refusal naming the same elements', () => {
    // Mostly sound elements, a few damaged.
    const damage = fc.oneof({ arbitrary: fc.constant(null), weight: 15 }, { arbitrary: fc.constantFrom(...Object.keys(DAMAGE)), weight: 1 });
    const listing = fc.array(fc.record({ descLength: fc.integer({ min: 0, max: 6000 }), damage }), { minLength: 0, maxLength: 120, size: 'max' });
    fc.assert(
      fc.property(listing, fc.boolean(), fc.option(fc.integer({ min: 1, max: 130 })), fc.boolean(), (items, pretty, limit, askEchoes) => {
        const elements = items.map(({ descLength, damage }, i) => (damage === null ? element(i, descLength) : DAMAGE[damage]!(element(i, descLength), i)));
        const text = JSON.stringify(elements, null, pretty ? 1 : undefined);
        const redact = createRedactor([SECRET]);
        const limitSent = limit ?? undefined;
        const got = streamed(text, redact, limitSent, askEchoes);
        const want = whole(text, redact, limitSent, askEchoes);
        // A body refused for its nesting may be told apart only by reading it: echoesSecrets may
        // then say whether an element holds a secret, or refuse it.
        if (want.echoes === 'refused' && got.echoes !== 'refused') want.echoes = elements.some((item) => JSON.stringify(redactDeep(item, (value) => redact.data?.(value) ?? value)) !== JSON.stringify(item));
        expect(got).toEqual(want);
      }),
      { numRuns: 25, seed: 30 },
    );
  });

  it('gives the same with the elements of an earlier answer known: those taken as they were, every other one validated', () => {
    const damage = fc.oneof({ arbitrary: fc.constant(null), weight: 8 }, { arbitrary: fc.constantFrom(...Object.keys(DAMAGE)), weight: 1 });
    const listing = fc.array(fc.record({ descLength: fc.integer({ min: 0, max: 300 }), damage, earlier: fc.boolean() }), { minLength: 0, maxLength: 60 });
    fc.assert(
      fc.property(listing, fc.boolean(), fc.option(fc.integer({ min: 1, max: 70 })), fc.boolean(), (items, pretty, limit, secret) => {
        const elements = items.map(({ descLength, damage }, i) => (damage === null ? element(i, descLength) : DAMAGE[damage]!(element(i, descLength), i)));
        // The earlier answer: some of the sound elements, in another order.
        const earlier = elements.filter((_, i) => items[i]!.damage === null && items[i]!.earlier).reverse();
        const text = JSON.stringify(elements, null, pretty ? 1 : undefined);
        const redact = createRedactor(secret ? [SECRET] : []);
        const got = knowing(text, JSON.stringify(earlier, null, pretty ? 1 : undefined), redact, limit ?? undefined);
        const { taken, ...outcome } = got;
        expect(outcome).toEqual(whole(text, redact, limit ?? undefined));
        // Without a secret to look for, every element of the earlier answer is known.
        if (!secret) expect(taken).toBe(earlier.length);
      }),
      { numRuns: 40, seed: 41 },
    );
  });

  it('refuses a body that is not JSON as the whole text does, wherever it goes wrong: the position and the excerpt of its start', () => {
    const junk = fc.constantFrom('', ']', '"', '\\', ',', '{', '}', '[', 'x', '\u00e9');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.nat(), junk, fc.boolean(), (count, at, inserted, cut) => {
        const text = JSON.stringify(Array.from({ length: count }, (_, i) => element(i, 3000 + (i % 7))));
        const where = at % (text.length + 1);
        const damaged = cut ? text.slice(0, where) : text.slice(0, where) + inserted + text.slice(where);
        const redact = createRedactor([]);
        // A leading no-break space is left out of the text, but sends the whole body through JSON.parse at once.
        expect(streamed(damaged, redact, undefined)).toEqual(streamed(`\u00a0${damaged}`, redact, undefined));
        // Every element of the sound text known: the damaged one's is not, and the refusal is the same.
        const { taken: _taken, ...withKnown } = knowing(damaged, text, redact, undefined);
        expect(withKnown).toEqual(streamed(damaged, redact, undefined));
      }),
      { numRuns: 25, seed: 11 },
    );
  });

  it.each([' x', ']', ', 1]', '}'])('refuses a short array with %j after its end as the whole text does', (after) => {
    const text = JSON.stringify([element(0, 10), element(1, 10)]) + after;
    const redact = createRedactor([]);
    const got = streamed(text, redact, undefined);
    expect(got).toEqual(streamed(`\u00a0${text}`, redact, undefined));
    expect('error' in got && got.error).toContain('not JSON');
  });

  it('finds a secret the answer writes with JSON escapes, before reading it as after', () => {
    const items = Array.from({ length: 40 }, (_, i) => element(i, 3000));
    (items[30]!['message'] as Record<string, unknown>)['desc'] = 'ECHO';
    // The key's first letter escaped: the text holds no plain copy of it.
    const text = JSON.stringify(items).replace('ECHO', `see \\u006b${SECRET.slice(1)}`);
    const outcome = streamed(text, createRedactor([SECRET]), undefined, true);
    expect(outcome).toMatchObject({ echoes: true, warnings: [expect.stringContaining('element 30 of the listing')] });
    expect(JSON.stringify(outcome)).not.toContain(SECRET.slice(1));
  });
});

