/**
 * Prettier on several threads gives the bytes of formatting each file alone in one thread.
 * The pool is tested from the sources with workers that run in this thread (a worker cannot load
 * `.ts`), and end to end with real worker threads from the build (`npm test` builds first).
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emitFiles, emitFilesFor, emitParallel, formatWithPrettier, workerCount, type EmittedFile } from '../../src/emit/index.js';
import { FormatPool, type FormatWorker } from '../../src/emit/format-pool.js';
import { createPrettierFormatter } from '../../src/emit/prettier.js';
import { serveFormatRequests, type FormatReply, type FormatRequest } from '../../src/emit/format-service.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { EmitError } from '../../src/model/errors.js';
import { hostileDescriptors, loadExampleDescriptors, makeTempDir, REPO_ROOT, removeTempDir } from './helpers.js';

const SOURCE = { baseUrl: 'https://schema.example.com/api', query: { cmd: 'getmsgtypes' } };

/** A format worker running in this thread, over a real message channel. */
class InThreadWorker extends EventEmitter implements FormatWorker {
  readonly #channel = new MessageChannel();
  constructor(outDir: string) {
    super();
    serveFormatRequests(this.#channel.port2, outDir);
    this.#channel.port1.on('message', (reply: FormatReply) => this.emit('message', reply));
  }
  postMessage(request: FormatRequest): void {
    this.#channel.port1.postMessage(request);
  }
  terminate(): Promise<number> {
    this.#channel.port1.close();
    this.#channel.port2.close();
    return Promise.resolve(0);
  }
}

/** A worker that dies as soon as it is asked anything. */
class CrashingWorker extends EventEmitter implements FormatWorker {
  postMessage(): void {
    setImmediate(() => this.emit('exit', 1));
  }
  terminate(): Promise<number> {
    return Promise.resolve(0);
  }
}

const byPath = (a: EmittedFile, b: EmittedFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

async function formatInPool(files: EmittedFile[], outDir: string, workers: number, chunk: number): Promise<EmittedFile[]> {
  const pool = new FormatPool({ outDir, workers, start: (dir) => new InThreadWorker(dir) });
  try {
    for (let at = 0; at < files.length; at += chunk) pool.add(files.slice(at, at + chunk));
    return (await pool.finish()).sort(byPath);
  } finally {
    await pool.close();
  }
}

let messages: Descriptor[];
let tempDir: string;
let configured: string;

beforeAll(async () => {
  messages = [...(await loadExampleDescriptors()), ...hostileDescriptors().map((d) => ({ ...d, mNum: d.mNum + 90000 }))];
  tempDir = await makeTempDir('prettier-parallel');
  configured = join(tempDir, 'configured');
  await mkdir(configured, { recursive: true });
  // A config unlike prettier's defaults, so formatting without it would show.
  await writeFile(join(configured, '.prettierrc'), JSON.stringify({ semi: false, singleQuote: true, printWidth: 60, trailingComma: 'none' }));
});

afterAll(async () => {
  await removeTempDir(tempDir);
});

describe('FormatPool', () => {
  it('formats exactly as formatting each file alone in this thread, with the folder config', async () => {
    const files = await emitFiles({ messages, source: SOURCE, packageName: 'acme-schema' });
    const alone = (await formatWithPrettier(files, { outDir: configured })).sort(byPath);
    expect(alone.find((f) => f.path === 'index.ts')!.text).not.toContain(';\n');
    for (const workers of [1, 2]) {
      expect(await formatInPool(files, configured, workers, 37)).toEqual(alone);
    }
  });

  it('keeps a parser the user configured', async () => {
    const outDir = join(tempDir, 'typescript-parser');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, '.prettierrc'), JSON.stringify({ parser: 'typescript', semi: false }));
    const files = (await emitFiles({ messages: messages.slice(0, 40), source: SOURCE })).sort(byPath);
    expect(await formatInPool(files, outDir, 2, 10)).toEqual((await formatWithPrettier(files, { outDir })).sort(byPath));
  });

  it('reports a file prettier cannot format as an EmitError naming it, from a worker', async () => {
    const files = await emitFiles({ messages: messages.slice(0, 30), source: SOURCE });
    const broken = { path: 'messages/Broken.ts', text: 'export const = ;\n' };
    // Dealt first, so a worker (not this thread) meets it.
    const failed = formatInPool([broken, ...files], configured, 1, 50);
    await expect(failed).rejects.toBeInstanceOf(EmitError);
    await expect(failed).rejects.toThrow(/Prettier could not format messages\/Broken\.ts/);
  });

  it('reports a broken prettier config as an EmitError', async () => {
    const outDir = join(tempDir, 'broken-config');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, '.prettierrc'), '{ "semi": ');
    const files = await emitFiles({ messages: messages.slice(0, 30), source: SOURCE });
    await expect(formatInPool(files, outDir, 2, 10)).rejects.toThrow(/Prettier could not format .*\.ts/);
  });

  it('fails instead of waiting forever when a worker dies', async () => {
    const pool = new FormatPool({ outDir: configured, workers: 1, start: () => new CrashingWorker() });
    try {
      pool.add([{ path: 'messages/A.ts', text: 'export const a = 1;\n' }]);
      await expect(pool.finish()).rejects.toThrow(/prettier worker exited/);
    } finally {
      await pool.close();
    }
  });
});

describe('createPrettierFormatter', () => {
  it('gives the bytes of a plain prettier.format with the resolved config, template literals or not', async () => {
    const prettier = await import('prettier');
    const config = await prettier.resolveConfig(join(configured, 'messages/x.ts'));
    expect(config).toMatchObject({ semi: false });
    const embedded = 'export const style = css`a{color:red}`;\nexport const query = gql`{ a { b } }`;\nexport const note = `x ${1} y`;\n';
    const files = [...(await emitFiles({ messages: messages.slice(0, 20), source: SOURCE })), { path: 'messages/Embedded.ts', text: embedded }];
    const format = await createPrettierFormatter(configured);
    const formatted = await format(files);
    expect(formatted.map((f) => f.path)).toEqual(files.map((f) => f.path));
    for (const [i, file] of files.entries()) {
      const plain = await prettier.format(file.text, { ...config, filepath: join(configured, file.path), parser: 'babel-ts' });
      expect(formatted[i]!.text, file.path).toBe(plain);
    }
    // Embedded CSS is still formatted where there is some.
    expect(formatted.at(-1)!.text).toContain('color: red;');
  });
});

describe('workerCount', () => {
  it('starts no workers without prettier, and none from the TypeScript sources', () => {
    expect(workerCount(10_000, false, {})).toBe(0);
    expect(workerCount(10_000, true, {})).toBe(0);
    expect(workerCount(10_000, true, { SCHEMA_SYNC_EMIT_WORKERS: '2' })).toBe(0);
  });
});

// The compiled modules, where workers can run.
const DIST = join(REPO_ROOT, 'dist/emit/index.js');
const built = existsSync(join(REPO_ROOT, 'dist/emit/format-pool.js'));

describe.skipIf(!built)('emitParallel with worker threads (built)', () => {
  it('gives the bytes of emitting and formatting in one thread, with the folder config', async () => {
    const dist = (await import(DIST)) as typeof import('../../src/emit/index.js');
    const options = {
      emit: { messages, source: SOURCE, packageName: 'acme-schema' },
      only: new Set(messages.map((m) => m.name)),
      paths: new Set((await emitFiles({ messages, source: SOURCE, packageName: 'acme-schema' })).map((f) => f.path)),
      prettierOutDir: configured,
    };
    const alone = await emitParallel({ ...options, workers: 0 });
    expect(alone.map((f) => f.path)).toEqual([...alone.map((f) => f.path)].sort());
    for (const workers of [1, 2]) expect(await dist.emitParallel({ ...options, workers })).toEqual(alone);
  });

  it('only emits the files asked for', async () => {
    const dist = (await import(DIST)) as typeof import('../../src/emit/index.js');
    const some = messages.slice(0, 150);
    const options = {
      emit: { messages, source: SOURCE },
      only: new Set(some.map((m) => m.name)),
      paths: new Set(['types.ts', ...(await emitFilesFor({ messages, source: SOURCE, only: new Set(some.map((m) => m.name)), shared: false })).map((f) => f.path)]),
      prettierOutDir: configured,
    };
    const alone = await emitParallel({ ...options, workers: 0 });
    expect(alone).toHaveLength(151);
    expect(await dist.emitParallel({ ...options, workers: 2 })).toEqual(alone);
  });

  it('counts one worker per further core, or as SCHEMA_SYNC_EMIT_WORKERS says', async () => {
    const dist = (await import(DIST)) as typeof import('../../src/emit/index.js');
    expect(dist.workerCount(10_000, true, { SCHEMA_SYNC_EMIT_WORKERS: '3' })).toBe(3);
    expect(dist.workerCount(10_000, true, { SCHEMA_SYNC_EMIT_WORKERS: '0' })).toBe(0);
    expect(dist.workerCount(10_000, false, {})).toBe(0);
    expect(dist.workerCount(50, true, {})).toBe(0);
  });
});
