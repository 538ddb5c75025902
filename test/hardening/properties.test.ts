/**
 * Property-based tests over arbitrary listings (arbitrary Unicode names and strings, lone
 * surrogates, `__proto__`, flags and actions in every encoding, optional fields left out, unknown
 * fields of any JSON shape), always
 * through the real stages: the wire JSON → parseListing (validate, normalise) → lockfile text
 * → parseLockfile, emitFiles, and diffDescriptors.
 *
 * Bounded (numRuns) to keep the file within about 20 s; a few sampled emits are compiled with
 * tsc in one run and imported, to see every type come back at run time under its exact name.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReport, diffDescriptors } from '../../src/diff/index.js';
import { emitFiles } from '../../src/emit/index.js';
import { parseListing } from '../../src/fetch/parse-listing.js';
import { parseLockfile } from '../../src/lock/parse.js';
import { serializeLockfile } from '../../src/lock/serialize.js';
import { KNOWN_FIELDS, type Descriptor } from '../../src/model/descriptor.js';
import { EmitError } from '../../src/model/errors.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { isSafeRelativePath } from '../../src/write/safe-path.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { binaryString } from '../helpers/binary-string.js';
import { compileProjects } from '../helpers/tsc.js';
import { seededRandom } from './helpers.js';

const known = new Set<string>(KNOWN_FIELDS);

/** Strings a server may send: any code point, grapheme clusters, lone surrogates, hostile bits. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const anyText = fc.oneof(
  binaryString({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
  fc.string({ unit: fc.oneof(fc.constantFrom('a', 'Z', '_', '$', '-', ' ', '.', '/', '\\', "'", '"', '`', '*/', '${', '\n', '\u2028', '\u202e', '\u0000'), loneSurrogate), maxLength: 8 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'default', 'class', 'messages', 'index', 'CON', '..', '.', 'Order', 'order', 'ORDER', 'my-type', 'my_type', 'my type', 'a.b', 'a-b'),
);
const name = anyText.filter((s) => s.length > 0);
/** Every encoding of a key flag real servers use (SPEC "The service, as real deployments behave"). */
const flag = fc.oneof(
  fc.boolean(),
  fc.constantFrom('Yes', 'No', 'YES', 'no', 'yEs', 'nO', ' Yes ', 'no\t', 'YESNO_YES', 'yesno_no', '1', '2'),
  fc.constantFrom(1, 2),
);
/** Every encoding of `actions`: letters (one unknown letter per token), names, enum names, masks, mixed lists, arrays. */
const actionToken = fc.constantFrom('S', 'I', 'D', 'SIURD', 'DRUIS', 'siurd', 'sd', 'SX', 'q', 'XX', 'Select', 'INSERT', 'update', 'MLINKACTIONS_REPLACE', 'mlinkactions_delete', '0', '31', '7', '016');
const actionText = fc
  .tuple(fc.array(actionToken, { maxLength: 4 }), fc.constantFrom(',', '|', ' ', ', ', ' | ', '\t'))
  .map(([tokens, separator]) => tokens.join(separator));
const mask = fc.integer({ min: 0, max: 31 });
const actions = fc.oneof(actionText, mask, fc.array(fc.oneof(actionText, mask), { maxLength: 3 }));
const filterFields = fc.oneof(anyText, fc.array(anyText, { maxLength: 4 }));
const unknownFields = fc.dictionary(
  fc.oneof(anyText, fc.constantFrom('desc', 'topic', 'pkey', '__proto__', 'dataProducts')).filter((k) => !known.has(k)),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), anyText),
  { maxKeys: 3 },
);

/** A wire element exactly as a service would send it (the test JSON-encodes the whole listing). */
const wireElement = fc.record({
  header: fc.constantFrom({ msgType: 'MsgDesc' }, { mTyp: 'MsgDesc' }, {}),
  message: fc
    .record(
      {
        name,
        mNum: fc.oneof(fc.nat({ max: 20 }), fc.nat({ max: Number.MAX_SAFE_INTEGER })),
        schemaHash: anyText,
        actions,
        hasTKey: flag,
        hasEKey: flag,
        hasOKey: flag,
        hasCF: flag,
        mToken: anyText,
        staticFilterFields: filterFields,
      },
      // Deployments differ: only these are always sent.
      { requiredKeys: ['name', 'mNum', 'schemaHash'] },
    )
    .chain((message) => unknownFields.map((extra) => ({ ...extra, ...message }))),
});

/** Unique names and numbers, as a valid listing has. */
const wireListing = fc
  .uniqueArray(wireElement, { selector: (e) => e.message.name, maxLength: 8 })
  .map((list) => list.filter((e, i) => list.findIndex((other) => other.message.mNum === e.message.mNum) === i));

/** The listing as the service's JSON answer, parsed back (as the fetch stage receives it). */
function overTheWire(listing: unknown[]): unknown[] {
  return JSON.parse(JSON.stringify(listing)) as unknown[];
}

function normalise(listing: unknown[]): Descriptor[] {
  return parseListing(overTheWire(listing), { origin: 'property' }).descriptors;
}

function lockfileText(messages: Descriptor[]): string {
  return serializeLockfile({ lockfileVersion: LOCKFILE_VERSION, source: { baseUrl: 'https://schemas.example.com', query: { cmd: 'getmsgtypes' } }, settings: {}, messages });
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('normalise → lockfile → read back', () => {
  it('is lossless, and the same descriptors in any order give the same bytes', () => {
    fc.assert(
      fc.property(wireListing, fc.integer(), (listing, seed) => {
        const descriptors = normalise(listing);
        expect(descriptors).toHaveLength(listing.length);
        const text = lockfileText(descriptors);
        const back = parseLockfile(text, 'schema-sync.lock.json');
        expect(back.messages).toEqual(descriptors);
        // Every unknown field is kept as received, `__proto__` included, as an own property.
        const wire = overTheWire(listing) as Array<{ message: Record<string, unknown> }>;
        for (const element of wire) {
          const kept = back.messages.find((d) => d.name === element.message['name'])!;
          const unknown = Object.keys(element.message).filter((k) => !known.has(k)).sort();
          expect(Object.keys(kept.extra).sort()).toEqual(unknown);
          for (const key of unknown) expect(kept.extra[key]).toEqual(element.message[key]);
        }
        expect(lockfileText(back.messages)).toBe(text);
        expect(lockfileText(normalise(shuffle(listing, seed)))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('diff', () => {
  it('finds nothing between the lockfile read back and the same listing fetched again in another order', () => {
    fc.assert(
      fc.property(wireListing, fc.integer(), (listing, seed) => {
        const locked = parseLockfile(lockfileText(normalise(listing)), 'lock').messages;
        const changes = diffDescriptors({ locked, fetched: normalise(shuffle(listing, seed)) });
        expect(changes).toEqual([]);
        expect(buildReport({ changes }).inSync).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  // B from A: some types dropped, some changed, some renamed (same mNum), some added.
  const listingPair = wireListing.chain((a) =>
    fc
      .record({
        drop: fc.array(fc.boolean(), { minLength: a.length, maxLength: a.length }),
        rehash: fc.array(fc.boolean(), { minLength: a.length, maxLength: a.length }),
        rename: fc.array(fc.option(name, { nil: undefined }), { minLength: a.length, maxLength: a.length }),
        added: wireListing,
      })
      .map(({ drop, rehash, rename, added }) => {
        const b = a
          .filter((_, i) => !drop[i])
          .map((e, i) => ({ header: e.header, message: { ...e.message, ...(rehash[i] ? { schemaHash: `${e.message.schemaHash}~` } : {}), ...(rename[i] ? { name: rename[i] } : {}) } }));
        const all = [...b, ...added];
        // Keep B valid: unique names and numbers.
        const valid = all.filter(
          (e, i) => all.findIndex((o) => o.message.name === e.message.name) === i && all.findIndex((o) => o.message.mNum === e.message.mNum) === i,
        );
        return { a, b: valid };
      }),
  );

  it('A→B and B→A mirror each other, for arbitrary Unicode listings through the real normaliser', () => {
    fc.assert(
      fc.property(listingPair, ({ a, b }) => {
        const da = normalise(a);
        const db = normalise(b);
        const forward = diffDescriptors({ locked: da, fetched: db });
        const backward = diffDescriptors({ locked: db, fetched: da });
        const names = (changes: typeof forward, kind: string) => changes.filter((c) => c.kind === kind).map((c) => c.name).sort();
        expect(names(backward, 'removed')).toEqual(names(forward, 'added'));
        expect(names(backward, 'added')).toEqual(names(forward, 'removed'));
        expect(names(backward, 'changed')).toEqual(names(forward, 'changed'));
        // Pairs as JSON, not joined with an arrow: an arbitrary name may hold the arrow itself.
        const renames = (changes: typeof forward, swap = false) =>
          changes.flatMap((c) => (c.kind === 'renamed' ? [JSON.stringify(swap ? [c.name, c.before.name] : [c.before.name, c.name])] : [])).sort();
        expect(renames(backward)).toEqual(renames(forward, true));
      }),
      { numRuns: 200 },
    );
  });
});

describe('emit', () => {
  const compileLater: Array<{ descriptors: Descriptor[]; files: Array<{ path: string; text: string }> }> = [];
  let project: string | undefined;
  afterAll(async () => {
    if (project) await removeDir(project);
  });

  it('keeps every type, inside the folder, or fails cleanly with an EmitError', async () => {
    let emitted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(wireListing, async (listing) => {
        const descriptors = normalise(listing);
        let files: Array<{ path: string; text: string }>;
        try {
          files = await emitFiles({ messages: descriptors, source: { baseUrl: 'https://schemas.example.com', query: {} } });
        } catch (error) {
          // Two names mapping to one identifier: refused, with both names.
          expect(error).toBeInstanceOf(EmitError);
          expect((error as Error).message.length).toBeGreaterThan(0);
          refused++;
          return;
        }
        emitted++;
        const paths = files.map((f) => f.path);
        expect(new Set(paths).size).toBe(paths.length);
        for (const path of paths) expect(isSafeRelativePath(path), path).toBe(true);
        expect(paths.filter((p) => p.startsWith('messages/'))).toHaveLength(descriptors.length);
        for (const file of files) {
          expect((file.text as string & { isWellFormed(): boolean }).isWellFormed(), file.path).toBe(true);
          expect(file.text.endsWith('\n')).toBe(true);
        }
        if (compileLater.length < 4 && descriptors.length >= 3) compileLater.push({ descriptors, files });
      }),
      { numRuns: 120 },
    );
    expect(emitted).toBeGreaterThan(0);
    console.log(`emit property: ${emitted} listings emitted, ${refused} refused with EmitError`);
  });

  it('the sampled outputs compile under strict nodenext and give back every type under its exact name', async () => {
    expect(compileLater.length).toBeGreaterThan(0);
    project = await tempDir('schema-sync-prop-');
    for (const [index, sample] of compileLater.entries()) {
      for (const file of sample.files) {
        const path = join(project, 'src', `out${index}`, file.path);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, file.text);
      }
    }
    await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', outDir: 'js', rootDir: 'src', skipLibCheck: true, types: [] },
        include: ['src'],
      }),
    );
    const [tsc] = compileProjects(join(project, 'tsconfig.json'));
    expect(tsc!.output).toBe('');
    expect(tsc!.code).toBe(0);
    for (const [index, sample] of compileLater.entries()) {
      const module = (await import(pathToFileURL(join(project, 'js', `out${index}`, 'index.js')).href)) as {
        messageNames: string[];
        messages: Record<string, { name: string; mNum: number; schemaHash: string; mToken: string }>;
        messagesByNumber: Record<number, { name: string }>;
      };
      expect([...module.messageNames].sort()).toEqual(sample.descriptors.map((d) => d.name).sort());
      for (const d of sample.descriptors) {
        const got = Object.getOwnPropertyDescriptor(module.messages, d.name)?.value as (typeof module.messages)[string];
        expect(got, d.name).toBeDefined();
        expect({ name: got.name, mNum: got.mNum, schemaHash: got.schemaHash, mToken: got.mToken }).toEqual({
          name: d.name,
          mNum: d.mNum,
          schemaHash: d.schemaHash,
          mToken: d.mToken,
        });
        expect(module.messagesByNumber[d.mNum]?.name).toBe(d.name);
      }
    }
  });
});
