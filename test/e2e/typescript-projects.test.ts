/**
 * The default output (target `ts`, no `--package`) in the TypeScript projects users have,
 * without changing their tsconfig: a default CommonJS project as `npm init -y && tsc --init`
 * make it (TypeScript 6: `module: nodenext`, `verbatimModuleSyntax`, …; npm 11: `"type":
 * "commonjs"`), an ES module project under `module: nodenext`, and one under
 * `moduleResolution: bundler` (run through esbuild, as a bundler project runs). Each project is
 * generated into by the CLI (run in this process, see test/helpers/in-process.ts) from the
 * reference server, type-checked by one `tsc` with its own tsconfig (test/helpers/tsc.ts; literal
 * types asserted: a widened literal fails to compile), then run by Node.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { readTree, removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { compileProjects, runToEnd as run, type TscResult } from '../helpers/tsc.js';
import { wireElement } from '../helpers/listing.js';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const OUT = 'src/generated/schema';

/** A records answer of the service: an Order whose 64-bit quantity is beyond 2^53. */
const ANSWER = '[{"header":{"mTyp":"Order"},"message":{"pkey":{"id":"A1"},"qty":12345678901234567890,"side":"Buy"}},{"header":{"mTyp":"QueryResult"},"message":{"numMessagesSent":1,"result":"Ok"}}]';

/** The field descriptors the server answers getschema with. */
const SCHEMAS = {
  Order: [
    { pos: 1, name: 'id', isPkey: 'Yes', fType: 'String' },
    { pos: 2, name: 'qty', isPkey: 'No', fType: 'ULong' },
    { pos: 3, name: 'side', isPkey: 'No', fType: 'Enum', eSet: 'None,Buy,Sell' },
  ],
  Fill: [{ pos: 1, name: 'price', isPkey: 'No', fType: 'Double' }],
};

/** Literal types a consumer relies on: each line fails to compile when its literal widens. */
const ASSERTIONS = `
const mNum: 1001 = schema.messages.Order.mNum;
const token: 'Trading' = schema.Order.mToken;
const actions: readonly ['select', 'insert', 'update', 'replace', 'delete'] = schema.Order.actions;
const byNumber: 'Fill' = schema.messagesByNumber[1002].name;
const names: readonly ['Fill', 'Order'] = schema.messageNames;
// The records runtime, compiled by the project (int64 string: a 64-bit field's digits, exact).
const first = schema.parseRecords(${JSON.stringify(ANSWER)}).records[0];
const qty: string | undefined = first !== undefined && schema.isElementOf(first, 'Order') ? first.message.qty : undefined;
console.log(JSON.stringify({ mNum, token, actions, byNumber, names, qty }));
`;

/** What each project prints: the generated values at run time. */
const PRINTED = { mNum: 1001, token: 'Trading', actions: ['select', 'insert', 'update', 'replace', 'delete'], byNumber: 'Fill', names: ['Fill', 'Order'], qty: '12345678901234567890' };

/** The three projects: how each differs from the default one, and how its user code imports the folder. */
const PROJECTS = {
  // As `npm init -y && npx tsc --init` leave it: a CommonJS file imports by `import … = require`.
  commonjs: { type: 'commonjs', tsconfig: (text: string) => text, main: `import schema = require('./${OUT}/index.js');\n` },
  esm: { type: 'module', tsconfig: (text: string) => text, main: `import * as schema from './${OUT}/index.js';\n` },
  bundler: {
    type: 'module',
    tsconfig: (text: string) => text.replace('"module": "nodenext",', '"module": "esnext",\n    "moduleResolution": "bundler",\n    "noEmit": true,'),
    main: `import * as schema from './${OUT}';\n`,
  },
} as const;
type ProjectName = keyof typeof PROJECTS;

let server: TestServer;
let dir: string;
const compiled = new Map<ProjectName, TscResult>();

beforeAll(async () => {
  server = await startTestServer({
    listing: [wireElement({ name: 'Order', mNum: 1001, desc: 'An order.' }), wireElement({ name: 'Fill', mNum: 1002, actions: 'S', staticFilterFields: '' })],
    schemas: SCHEMAS,
  });
  dir = await tempDir('schema-sync-ts-projects-');
  // One default project, as a new user makes it (npm and tsc work offline), copied three times.
  const base = join(dir, 'base');
  await mkdir(base);
  expect((await run('npm', ['init', '-y'], base)).code).toBe(0);
  expect((await run(process.execPath, [TSC, '--init'], base)).code).toBe(0);
  const defaults = await readFile(join(base, 'tsconfig.json'), 'utf8');
  // What the brief of this test assumes of TypeScript 6's defaults; a newer tsc --init may change them.
  for (const option of ['"module": "nodenext"', '"verbatimModuleSyntax": true', '"exactOptionalPropertyTypes": true', '"noUncheckedIndexedAccess": true', '"strict": true']) {
    expect(defaults).toContain(option);
  }
  expect(JSON.parse(await readFile(join(base, 'package.json'), 'utf8'))).toMatchObject({ type: 'commonjs' });

  await Promise.all(
    (Object.keys(PROJECTS) as ProjectName[]).map(async (name) => {
      const project = join(dir, name);
      const spec = PROJECTS[name];
      await cp(base, project, { recursive: true });
      const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
      await writeFile(join(project, 'package.json'), JSON.stringify({ ...pkg, type: spec.type }, null, 2));
      await writeFile(join(project, 'tsconfig.json'), spec.tsconfig(defaults));
      await writeFile(join(project, 'main.ts'), spec.main + ASSERTIONS);
      // The default format, esm, asked for: a first pull without it decides as init does (mts in
      // the CommonJS project, which commonjs-build.test.ts builds and runs).
      const pulled = await runCli(['pull', '--base-url', server.url, '--module-format', 'esm', '--quiet', '--fields', '--int64', 'string'], { cwd: project, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      expect(pulled, name).toEqual({ code: 0, stdout: '', stderr: '' });
    }),
  );
  // One tsc per project, with the project's own tsconfig.json (test/helpers/tsc.ts).
  const names = Object.keys(PROJECTS) as ProjectName[];
  compileProjects(...names.map((name) => join(dir, name, 'tsconfig.json'))).forEach((result, i) => compiled.set(names[i]!, result));
}, 120_000);

afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

describe('the generated folder in a TypeScript project, its tsconfig unchanged', () => {
  it('carries its own package.json, recorded in the manifest, marking its files as ES modules', async () => {
    const tree = await readTree(join(dir, 'commonjs', OUT));
    expect(JSON.parse(tree.get('package.json')!)).toMatchObject({ type: 'module' });
    expect(Object.keys((JSON.parse(tree.get('.schema-sync-manifest.json')!) as { files: Record<string, unknown> }).files)).toContain('package.json');
  });

  it('a default CommonJS project (npm init -y, tsc --init): type-checks, and its CommonJS code requires the folder at run time', async () => {
    expect(compiled.get('commonjs')).toEqual({ code: 0, output: '' });
    const ran = await run(process.execPath, ['main.js'], join(dir, 'commonjs'));
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(ran.output)).toEqual(PRINTED);
  });

  it('an ES module project under module nodenext: type-checks and runs', async () => {
    expect(compiled.get('esm')).toEqual({ code: 0, output: '' });
    const ran = await run(process.execPath, ['main.js'], join(dir, 'esm'));
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(ran.output)).toEqual(PRINTED);
  });

  it('a project under moduleResolution bundler: type-checks, and runs bundled', async () => {
    expect(compiled.get('bundler')).toEqual({ code: 0, output: '' });
    const project = join(dir, 'bundler');
    await build({ entryPoints: [join(project, 'main.ts')], bundle: true, platform: 'node', format: 'esm', outfile: join(project, 'main.bundle.mjs'), logLevel: 'silent' });
    const ran = await run(process.execPath, ['main.bundle.mjs'], project);
    expect(ran.code, ran.output).toBe(0);
    expect(JSON.parse(ran.output)).toEqual(PRINTED);
  });

  it('what tsc emitted beside the generated files is not schema-sync\'s business: check stays in sync', async () => {
    const checked = await runCli(['check', '--base-url', server.url], { cwd: join(dir, 'commonjs'), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
  });
});

describe('a package.json schema-sync did not write in the output folder', () => {
  it('is never overwritten: the run fails with what to do and changes nothing', async () => {
    const project = join(dir, 'own-package');
    const own = JSON.stringify({ name: 'my-app', dependencies: { 'left-pad': '1.3.0' } });
    await cp(join(dir, 'base'), project, { recursive: true });
    await mkdir(join(project, 'lib'));
    await writeFile(join(project, 'lib', 'package.json'), own);
    const pulled = await runCli(['pull', '--base-url', server.url, '--out', 'lib', '--module-format', 'esm'], { cwd: project, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(pulled.code).toBe(2);
    expect(pulled.stderr).toMatch(/^error \[WRITE\]: .*lib holds a package\.json that schema-sync did not write; .* Nothing was changed\.\nhint: Generate into a folder of its own .*--package <name>/);
    expect([...(await readTree(join(project, 'lib'))).keys()]).toEqual(['package.json']);
    expect(await readFile(join(project, 'lib', 'package.json'), 'utf8')).toBe(own);
  });
});
