/**
 * Test helpers of the emit stage: a small normaliser for the wire listing (the real one lives in
 * the fetch stage; the emit tests must not depend on it), descriptor builders, temp folders and
 * a `tsc` runner.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ACTION_LETTERS, KNOWN_FIELDS, makeDescriptor, type Descriptor } from '../../src/model/descriptor.js';
import { formatPlan, plan, planNames, renderPlanned, type EmitOptions, type EmittedFile } from '../../src/emit/index.js';
import { moduleMarkerFile } from '../../src/emit/module-marker.js';
import { compileProjects, type TscResult } from '../helpers/tsc.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const KNOWN = new Set<string>(KNOWN_FIELDS);

function yesNo(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'yes');
}

/** Wire message → Descriptor: Yes/No → boolean, SIURD → names, comma list → array; absent fields stay absent. */
export function normaliseMessage(message: Record<string, unknown>): Descriptor {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(message).sort()) {
    if (!KNOWN.has(key)) extra[key] = message[key];
  }
  const present = (key: string) => Object.hasOwn(message, key);
  const letters = String(message['actions'] ?? '');
  const filters = String(message['staticFilterFields'] ?? '');
  return makeDescriptor(
    {
      name: String(message['name']),
      mNum: Number(message['mNum']),
      schemaHash: String(message['schemaHash']),
      actions: present('actions') ? [...letters].map((l) => ACTION_LETTERS[l as keyof typeof ACTION_LETTERS] ?? l) : undefined,
      hasTKey: present('hasTKey') ? yesNo(message['hasTKey']) : undefined,
      hasEKey: present('hasEKey') ? yesNo(message['hasEKey']) : undefined,
      hasOKey: present('hasOKey') ? yesNo(message['hasOKey']) : undefined,
      hasCF: present('hasCF') ? yesNo(message['hasCF']) : undefined,
      mToken: present('mToken') ? String(message['mToken']) : undefined,
      staticFilterFields: present('staticFilterFields') ? (filters === '' ? [] : filters.split(',')) : undefined,
    },
    extra,
  );
}

/** The descriptors of a listing in examples/ (default: the demo's, examples/descriptors.json). */
export async function loadExampleDescriptors(file = 'descriptors.json'): Promise<Descriptor[]> {
  const text = await readFile(join(REPO_ROOT, 'examples', file), 'utf8');
  const listing = JSON.parse(text) as { header: Record<string, unknown>; message: Record<string, unknown> }[];
  return listing
    .filter((element) => (element.header['msgType'] ?? element.header['mTyp']) !== 'QueryResult')
    .map((element) => normaliseMessage(element.message));
}

/** A descriptor with defaults for everything not given. */
export function descriptor(fields: Partial<Descriptor> & { name: string; mNum: number }): Descriptor {
  return {
    schemaHash: '0123456789ABCDEF',
    actions: ['select'],
    hasTKey: false,
    hasEKey: false,
    hasOKey: false,
    hasCF: false,
    mToken: 'Token',
    staticFilterFields: [],
    extra: {},
    ...fields,
  };
}

/** A fresh temp folder; remove it with {@link removeTempDir}. */
export function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `schema-sync-${prefix}-`));
}

export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Writes emitted files under `dir` (the write stage's job in the product; plain here). */
export async function writeEmitted(dir: string, files: readonly EmittedFile[]): Promise<void> {
  for (const file of files) {
    const path = join(dir, ...file.path.split('/'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.text);
  }
}

/**
 * What {@link formatEachAlone} gave, by place and text: the tests compare many batches against
 * formatting alone, with the same files (and the same folders, whose configs they never change)
 * again and again; prettier gives the same text for the same input and config.
 */
const formattedAlone = new Map<string, string>();

/** Each file formatted alone with a plain `prettier.format`, the config resolved for its place
 * as schema-sync resolves it (babel-ts for `.ts` unless a parser is configured); the module
 * marker and `.gitattributes`, which schema-sync never formats, as they are. */
export async function formatEachAlone(files: readonly EmittedFile[], outDir: string): Promise<EmittedFile[]> {
  const prettier = await import('prettier');
  const result: EmittedFile[] = [];
  for (const file of files) {
    if (file.text === moduleMarkerFile().text || file.path === '.gitattributes') {
      result.push(file);
      continue;
    }
    const filepath = join(outDir, ...file.path.split('/'));
    const key = `${filepath}\0${file.text}`;
    let text = formattedAlone.get(key);
    if (text === undefined) {
      const config = await prettier.resolveConfig(filepath, { editorconfig: true });
      const parser = config?.parser ?? (file.path.endsWith('.ts') ? 'babel-ts' : undefined);
      text = await prettier.format(file.text, { ...config, filepath, ...(parser ? { parser } : {}) });
      formattedAlone.set(key, text);
    }
    result.push({ path: file.path, text });
  }
  return result;
}

/** The project's `tsc -p <project>` (see test/helpers/tsc.ts): its exit code and output. */
export async function runTsc(project: string): Promise<TscResult> {
  return compileProjects(project)[0]!;
}

/** Fisher–Yates with a seeded PRNG (mulberry32), so a failing order can be reproduced. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Names a hostile or careless server may send. */
export const HOSTILE_NAMES = [
  'class',
  'default',
  'await',
  'my-type',
  'v1.2',
  'a/b',
  '..',
  '../../etc/passwd',
  'C:\\Windows\\win.ini',
  'Ünïcødé',
  '名前',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'CON',
  'messages',
  'MessageDescriptor',
  '123abc',
  'Order',
  'order',
  'line\nbreak',
  'sep\u2028arator',
  "it's",
  'a*/b',
  '`tick`',
  '${process.exit(1)}',
  "'); globalThis.pwned=1; ('",
] as const;

/** Values that try to end a string, comment or template literal early. */
const HOSTILE_VALUES = [
  "'",
  '"',
  '`',
  '${process.exit(1)}',
  "'); globalThis.pwned=1; ('",
  '`; globalThis.pwned=1; `',
  '*/ globalThis.pwned=1; /*',
  '\\',
  '\u2028globalThis.pwned=1',
  '\u202Eevil',
] as const;

/** Descriptors with hostile names, descriptions and values; mNum 0, 1, 2, … */
export function hostileDescriptors(): Descriptor[] {
  return HOSTILE_NAMES.map((name, index) => {
    const value = HOSTILE_VALUES[index % HOSTILE_VALUES.length]!;
    return descriptor({
      name,
      mNum: index,
      schemaHash: value,
      actions: index % 2 === 0 ? ['select', 'X'] : [],
      hasTKey: index % 2 === 0,
      hasOKey: index % 3 === 0,
      mToken: `tok${value}`,
      staticFilterFields: [value, `f${index}`],
      extra: {
        desc: `Line one */ globalThis.pwned=1; /*\n@deprecated ${value}\u2028\u2029 last ${name}`,
        topic: 'ignored',
      },
    });
  });
}

/**
 * The planned files of `paths` (message modules only of the types in `only`), rendered and
 * formatted when `prettierOutDir` is given: as a run renders the files it finds stale.
 */
export async function renderSelected(input: { emit: EmitOptions; only: ReadonlySet<string>; paths: ReadonlySet<string>; prettierOutDir?: string }): Promise<EmittedFile[]> {
  const { messages, source, ...settings } = input.emit;
  const planned = await plan({ messages, source }, settings);
  const files = input.prettierOutDir === undefined ? planned : await formatPlan(planned, input.prettierOutDir);
  const names = planNames(messages.map((m) => m.name));
  const stems = new Set([...input.only].flatMap((name) => (names.has(name) ? [`messages/${names.get(name)!.fileStem}`] : [])));
  const wanted = (path: string) => input.paths.has(path) && (!path.startsWith('messages/') || stems.has(path.replace(/\.(d\.ts|ts|js)$/, '')));
  return renderPlanned(files.filter((file) => wanted(file.path)));
}
