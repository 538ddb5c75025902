/**
 * The import graph keeps the layering (scripts/import-graph.mjs, also run as
 * `npm run import-graph`): no runtime import cycle in the built JavaScript, util/ imports nothing
 * else of src/, model/ imports no stage, and the cache (incremental/) imports nothing but model/
 * and util/, types included. The checker itself is tried on a small made-up tree.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheImportProblems, importCycles, importFindings, importGraph, layeringProblems } from '../../scripts/import-graph.mjs';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';

describe('the import graph of the built package (dist/)', () => {
  it('has no runtime import cycle, util/ and model/ import no stage, and incremental/ only model/ and util/', () => {
    expect(importFindings(ROOT)).toEqual({ cycles: [], layering: [] });
  });
});

describe('the import graph checker', () => {
  let dir: string;
  /** A made-up dist/: each module with its text. */
  const modules: Record<string, string> = {
    'write/change-set.js': "import { isSafe } from './manifest.js';\nexport const a = 1;\n",
    'write/manifest.js': "import { a } from './change-set.js';\nexport const isSafe = () => a;\n",
    'cli/table.js': "export const run = () => import('./serve.js');\n",
    'cli/serve.js': "export { run } from './table.js';\n",
    'util/canonical-json.js': "import { compare } from '../model/descriptor.js';\n",
    'model/descriptor.js': "import { readFlag } from '../fetch/encodings.js';\nexport const t = `\nimport { x } from '../run/pull.js';\n`;\n",
    'fetch/encodings.js': 'export const readFlag = 1;\n',
    'run/pull.js': 'export const pull = 1;\n',
  };

  beforeAll(async () => {
    dir = await tempDir('schema-sync-import-graph-');
    for (const [path, text] of Object.entries(modules)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
  });
  afterAll(() => removeDir(dir));

  it('finds each cycle, also through a lazily loaded module, as a path back to its start', () => {
    expect(importCycles(importGraph(dir, '.js'))).toEqual([
      ['cli/serve.js', 'cli/table.js', 'cli/serve.js'],
      ['write/change-set.js', 'write/manifest.js', 'write/change-set.js'],
    ]);
  });

  it('finds util/ and model/ importing upward, and takes no template text for an import', () => {
    expect(layeringProblems(importGraph(dir, '.js'))).toEqual([
      'model/descriptor.js → fetch/encodings.js (model/ imports no stage)',
      'util/canonical-json.js → model/descriptor.js (util/ imports nothing else of src/)',
    ]);
  });

  it('counts no type-only import as a runtime edge', async () => {
    const src = join(dir, 'src');
    await mkdir(src, { recursive: true });
    await writeFile(join(src, 'a.ts'), "import type { B } from './b.js';\nimport { type C } from './c.js';\nexport type A = B | C;\n");
    await writeFile(join(src, 'b.ts'), "import { a } from './a.js';\nexport type B = typeof a;\n");
    await writeFile(join(src, 'c.ts'), 'export type C = 1;\n');
    const graph = importGraph(src, '.ts');
    expect(graph.get('a.ts')).toEqual([
      { to: 'b.ts', typeOnly: true },
      { to: 'c.ts', typeOnly: true },
    ]);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds the cache importing a stage, a type of it too', async () => {
    const src = join(dir, 'cache-src');
    const files: Record<string, string> = {
      'incremental/index.ts': "import type { AnswerDrift } from '../run/diff-answer.js';\nimport { hashOf } from '../util/hash.js';\nimport type { Message } from '../model/message.js';\nimport { save } from './record.js';\n",
      'incremental/record.ts': "import { parse } from '../lock/parse.js';\nexport const save = 1;\n",
      'run/diff-answer.ts': 'export type AnswerDrift = 1;\n',
      'lock/parse.ts': 'export const parse = 1;\n',
      'util/hash.ts': 'export const hashOf = 1;\n',
      'model/message.ts': 'export type Message = 1;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(src, path)), { recursive: true });
      await writeFile(join(src, path), text);
    }
    expect(cacheImportProblems(importGraph(src, '.ts'))).toEqual([
      'incremental/index.ts → run/diff-answer.ts (incremental/ imports model/ and util/ alone)',
      'incremental/record.ts → lock/parse.ts (incremental/ imports model/ and util/ alone)',
    ]);
  });
});
