/**
 * renderSelected, formatted: every file has the bytes of emitting everything and formatting each
 * file alone with the folder's prettier configuration, whichever files are selected.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emitFiles, formatWithPrettier, type EmittedFile } from '../../src/emit/index.js';
import { createPrettierFormatter } from '../../src/emit/prettier.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { EmitError } from '../../src/model/errors.js';
import { formatEachAlone, hostileDescriptors, loadExampleDescriptors, makeTempDir, removeTempDir, renderSelected } from './helpers.js';

const SOURCE = { baseUrl: 'https://schema.example.com/api', query: { cmd: 'getmsgtypes' } };

let messages: Descriptor[];
let tempDir: string;
let configured: string;

beforeAll(async () => {
  messages = [...(await loadExampleDescriptors()), ...hostileDescriptors().map((d) => ({ ...d, mNum: d.mNum + 90000 }))];
  tempDir = await makeTempDir('render-selected');
  configured = join(tempDir, 'configured');
  await mkdir(configured, { recursive: true });
  // A config unlike prettier's defaults, so formatting without it would show.
  await writeFile(join(configured, '.prettierrc'), JSON.stringify({ semi: false, singleQuote: true, printWidth: 60, trailingComma: 'none' }));
});

afterAll(async () => {
  await removeTempDir(tempDir);
});

describe('renderSelected with prettier', () => {
  it('gives every file the bytes of formatting it alone, with the folder config, sorted by path', async () => {
    const emit = { messages, source: SOURCE, package: 'acme-schema', target: 'ts' as const };
    const all = await emitFiles(emit);
    const selected = await renderSelected({ emit, only: new Set(messages.map((m) => m.name)), paths: new Set(all.map((f) => f.path)), prettierOutDir: configured });
    expect(selected.find((f) => f.path === 'index.ts')!.text).not.toContain(';\n');
    expect(selected.map((f) => f.path)).toEqual(all.map((f) => f.path));
    expect(selected).toEqual(await formatEachAlone(all, configured));
    expect(selected).toEqual(await formatWithPrettier(all, { outDir: configured }));
  });

  it('does the same for the js+dts target: modules, declarations and package files', async () => {
    const emit = { messages: [...messages.slice(0, 30), ...messages.slice(-20)], source: SOURCE, package: 'acme-schema' };
    const all = await emitFiles(emit);
    const selected = await renderSelected({ emit, only: new Set(emit.messages.map((m) => m.name)), paths: new Set(all.map((f) => f.path)), prettierOutDir: configured });
    expect(selected.find((f) => f.path === 'index.d.ts')!.text).not.toContain(';\n');
    expect(selected).toEqual(await formatEachAlone(all, configured));
  });

  it('keeps a parser the user configured', async () => {
    const outDir = join(tempDir, 'typescript-parser');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, '.prettierrc'), JSON.stringify({ parser: 'typescript', semi: false }));
    const emit = { messages: messages.slice(0, 40), source: SOURCE };
    const all = await emitFiles(emit);
    const selected = await renderSelected({ emit, only: new Set(emit.messages.map((m) => m.name)), paths: new Set(all.map((f) => f.path)), prettierOutDir: outDir });
    expect(selected).toEqual(await formatEachAlone(all, outDir));
  });

  it('only renders the files asked for', async () => {
    const emit = { messages, source: SOURCE };
    const some = new Set(messages.slice(0, 150).map((m) => m.name));
    const all = await emitFiles(emit);
    const modules = (await renderSelected({ emit, only: some, paths: new Set(all.map((f) => f.path)) })).filter((f) => f.path.startsWith('messages/'));
    expect(modules).toHaveLength(150);
    const paths = new Set(['types.ts', ...modules.map((f) => f.path)]);
    const selected = await renderSelected({ emit, only: some, paths, prettierOutDir: configured });
    expect(selected).toHaveLength(151);
    expect(selected).toEqual(await formatEachAlone(all.filter((f) => paths.has(f.path)), configured));
  });

  it('reports a broken prettier config as an EmitError naming a file', async () => {
    const outDir = join(tempDir, 'broken-config');
    await mkdir(outDir, { recursive: true });
    await writeFile(join(outDir, '.prettierrc'), '{ "semi": ');
    const emit = { messages: messages.slice(0, 30), source: SOURCE };
    const selected = renderSelected({ emit, only: new Set(emit.messages.map((m) => m.name)), paths: new Set(['index.ts', 'types.ts']), prettierOutDir: outDir });
    await expect(selected).rejects.toBeInstanceOf(EmitError);
    await expect(selected).rejects.toThrow(/Prettier could not format .*\.ts/);
  });
});

describe('formatWithPrettier', () => {
  it('reports a file prettier cannot format as an EmitError naming it', async () => {
    const files = await emitFiles({ messages: messages.slice(0, 30), source: SOURCE });
    const failed = formatWithPrettier([{ path: 'messages/Broken.ts', text: 'export const = ;\n' }, ...files], { outDir: configured });
    await expect(failed).rejects.toBeInstanceOf(EmitError);
    await expect(failed).rejects.toThrow(/Prettier could not format messages\/Broken\.ts/);
  });
});

describe('createPrettierFormatter', () => {
  it('gives the bytes of a plain prettier.format with the resolved config, template literals or not', async () => {
    const prettier = await import('prettier');
    const config = await prettier.resolveConfig(join(configured, 'messages/x.ts'));
    expect(config).toMatchObject({ semi: false });
    const embedded = 'export const style = css`a{color:red}`;\nexport const query = gql`{ a { b } }`;\nexport const note = `x ${1} y`;\n';
    const files = [...(await emitFiles({ messages: messages.slice(0, 20), source: SOURCE })).filter((f) => f.path.endsWith('.ts')), { path: 'messages/Embedded.ts', text: embedded }];
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
