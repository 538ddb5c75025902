/**
 * `moduleFormat: "commonjs"` and `"mts"` in the CommonJS projects that build with `tsc`
 * (issue 29 item 4): the generated folder compiled with the project, the compiled files run by
 * Node, from `dist/` where the folder's own package.json does not follow them.
 *
 * | project | package.json | tsconfig | user code |
 * |---|---|---|---|
 * | `commonjs` | no `"type"` | `module: commonjs`, `outDir: dist` | `import { … } from './generated/schema'` |
 * | `commonjs-beside` | no `"type"` | `module: commonjs` as TypeScript ≤ 5.8's `tsc --init` writes it: no `outDir`, the `.js` beside the `.ts` | the same |
 * | `node16` | `"type": "commonjs"` | `module: node16`, `outDir: dist` | `import { … } from './generated/schema/index.js'` |
 * | `nodenext-verbatim` (`mts`) | `"type": "commonjs"` | TypeScript 6's `tsc --init` (`module: nodenext`, `verbatimModuleSyntax`, …), `outDir: dist` | `import schema = require('./generated/schema/index.mjs')` |
 *
 * With the default `esm` format, `commonjs-beside` compiled and then failed with `exports is not
 * defined in ES module scope` (its CommonJS output beside a `"type": "module"` marker), and
 * `node16` did not compile (TS1479: a CommonJS file cannot `require` the ES module folder under
 * node16; under nodenext it compiled into ES modules that failed from `dist/` with `Cannot use
 * import statement outside a module`); `nodenext-verbatim` compiled, and failed from `dist/` with
 * `Cannot use import statement outside a module`, while `commonjs` does not compile there
 * (TS1295, TS1287: `verbatimModuleSyntax` refuses `import` and `export` in a CommonJS file;
 * as the tests' compiler sees it, which checks the generated modules in full: a project's own
 * tsc skips their `@ts-nocheck` code, docs/generated-code.md).
 * One pull per format (in this process, from a saved answer) is copied into each project; one
 * in-process `tsc` call compiles them all (test/helpers/tsc.ts).
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTree, removeDir, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';
import { compileProjects, runToEnd, type TscResult } from '../helpers/tsc.js';

const OUT = 'src/generated/schema';

/** Compiler options every project shares: strict, no Node types needed, TypeScript's lib files not what is tested. */
const COMMON = { strict: true, target: 'es2022', lib: ['es2022'], types: [], skipDefaultLibCheck: true };

/** Built into `dist/`. */
const DIST = { rootDir: 'src', outDir: 'dist' };

/** What the user code prints: a constant, a literal type kept (it fails to compile when widened), and the registry. */
const BODY = `declare const console: { log(text: string): void }; // instead of @types/node, which costs each tsc run seconds
const mNum: 1001 = Order.mNum;
console.log(JSON.stringify({ mNum, names: messageNames, byNumber: messagesByNumber[1002].name }));
`;

const PROJECTS = {
  commonjs: {
    format: 'commonjs',
    packageJson: { name: 'cjs-app', version: '1.0.0', private: true },
    compilerOptions: { ...COMMON, ...DIST, module: 'commonjs', esModuleInterop: true },
    main: `import { Order, messageNames, messagesByNumber } from './generated/schema';\n${BODY}`,
    built: 'dist',
  },
  'commonjs-beside': {
    format: 'commonjs',
    packageJson: { name: 'cjs-app', version: '1.0.0', private: true },
    compilerOptions: { ...COMMON, module: 'commonjs', esModuleInterop: true },
    main: `import { Order, messageNames, messagesByNumber } from './generated/schema';\n${BODY}`,
    built: 'src',
  },
  node16: {
    format: 'commonjs',
    packageJson: { name: 'node16-app', version: '1.0.0', private: true, type: 'commonjs' },
    compilerOptions: { ...COMMON, ...DIST, module: 'node16', moduleResolution: 'node16' },
    main: `import { Order, messageNames, messagesByNumber } from './generated/schema/index.js';\n${BODY}`,
    built: 'dist',
  },
  'nodenext-verbatim': {
    format: 'mts',
    packageJson: { name: 'ts6-app', version: '1.0.0', type: 'commonjs' },
    compilerOptions: {
      ...COMMON,
      ...DIST,
      // What TypeScript 6's tsc --init writes, besides the lib and types above.
      module: 'nodenext',
      verbatimModuleSyntax: true,
      isolatedModules: true,
      moduleDetection: 'force',
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      noUncheckedSideEffectImports: true,
    },
    main: `import schema = require('./generated/schema/index.mjs');\nconst { Order, messageNames, messagesByNumber } = schema;\n${BODY}`,
    built: 'dist',
  },
} as const;
type ProjectName = keyof typeof PROJECTS;

/**
 * Projects pulled in place without `init` (no config, no lockfile, no --module-format or
 * --target): the pull decides as init does, records it, and says so in one line.
 */
const WITHOUT_INIT = {
  'tsc-init': {
    packageJson: { name: 'ts6-app', version: '1.0.0', type: 'commonjs' },
    tsconfig: PROJECTS['nodenext-verbatim'].compilerOptions,
    main: ['src/main.ts', PROJECTS['nodenext-verbatim'].main],
    run: 'dist/main.js',
    settings: { moduleFormat: 'mts' },
    said: 'Module format mts: tsconfig.json has module nodenext and verbatimModuleSyntax in a CommonJS package',
  },
  'plain-js': {
    packageJson: { name: 'js-app', version: '1.0.0', type: 'commonjs' },
    tsconfig: undefined,
    main: ['main.js', `const { Order, messageNames, messagesByNumber } = require('./${OUT}/index.js');
console.log(JSON.stringify({ mNum: Order.mNum, names: messageNames, byNumber: messagesByNumber[1002].name }));
`],
    run: 'main.js',
    settings: { target: 'js+dts' },
    said: 'Target js+dts: no tsconfig.json found: a JavaScript project',
  },
} as const;
type WithoutInit = keyof typeof WITHOUT_INIT;
const pulledWithoutInit = new Map<WithoutInit, { stderr: string; settings: unknown; code: number | null; output: string; tsc?: TscResult }>();

/** The formats pulled, once each. */
const FORMATS = ['commonjs', 'mts'] as const;

let dir: string;
const compiled = new Map<ProjectName, TscResult>();
const ran = new Map<ProjectName, { code: number | null; output: string }>();

beforeAll(async () => {
  dir = await tempDir('schema-sync-commonjs-build-');
  const listing = [wireElement({ name: 'Order', mNum: 1001 }), wireElement({ name: 'Fill', mNum: 1002, actions: 'S' })];
  await writeFile(join(dir, 'listing.json'), JSON.stringify(listing));
  await Promise.all(
    FORMATS.map(async (format) => {
      await mkdir(join(dir, `pulled-${format}`));
      const run = await runCli(['pull', '--input', '../listing.json', '--out', OUT, '--module-format', format, '--quiet'], { cwd: join(dir, `pulled-${format}`), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
      expect(run, format).toEqual({ code: 0, stdout: '', stderr: '' });
    }),
  );
  await Promise.all(
    (Object.keys(PROJECTS) as ProjectName[]).map(async (name) => {
      const project = join(dir, name);
      const spec = PROJECTS[name];
      await cp(join(dir, `pulled-${spec.format}`, OUT), join(project, OUT), { recursive: true });
      await writeFile(join(project, 'package.json'), JSON.stringify(spec.packageJson, null, 2));
      await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: spec.compilerOptions, include: ['src'] }, null, 2));
      await writeFile(join(project, 'src', 'main.ts'), spec.main);
    }),
  );
  for (const [name, spec] of Object.entries(WITHOUT_INIT) as [WithoutInit, (typeof WITHOUT_INIT)[WithoutInit]][]) {
    const project = join(dir, name);
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify(spec.packageJson, null, 2));
    if (spec.tsconfig !== undefined) await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: spec.tsconfig, include: ['src'] }, null, 2));
    await writeFile(join(project, spec.main[0]), spec.main[1]);
    const run = await runCli(['pull', '--input', '../listing.json', '--out', OUT], { cwd: project, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
    expect(run.code, run.stderr).toBe(0);
    const settings = (JSON.parse(await readFile(join(project, 'schema-sync.lock.json'), 'utf8')) as { settings: unknown }).settings;
    const tsc = spec.tsconfig === undefined ? undefined : compileProjects(join(project, 'tsconfig.json'))[0]!;
    pulledWithoutInit.set(name, { stderr: run.stderr, settings, ...(await runToEnd(process.execPath, [spec.run], project)), ...(tsc === undefined ? {} : { tsc }) });
  }
  const names = Object.keys(PROJECTS) as ProjectName[];
  compileProjects(...names.map((name) => join(dir, name, 'tsconfig.json'))).forEach((result, i) => compiled.set(names[i]!, result));
  // Every program at once: each is a Node start-up.
  await Promise.all(names.map(async (name) => ran.set(name, await runToEnd(process.execPath, [`${PROJECTS[name].built}/main.js`], join(dir, name)))));
}, 60_000);

afterAll(async () => {
  await removeDir(dir);
});

describe('moduleFormat commonjs and mts: a CommonJS project compiles the generated folder with its own code and runs it', () => {
  it('commonjs marks the folder CommonJS; mts writes .mts modules importing .mjs; each recorded in the lockfile', async () => {
    expect(JSON.parse(await readFile(join(dir, 'commonjs', OUT, 'package.json'), 'utf8'))).toMatchObject({ type: 'commonjs' });
    expect([...(await readTree(join(dir, 'pulled-mts', OUT))).keys()].sort()).toEqual(['.gitattributes', '.schema-sync-manifest.json', 'index.mts', 'messages/Fill.mts', 'messages/Order.mts', 'package.json', 'types.mts']);
    expect(await readFile(join(dir, 'pulled-mts', OUT, 'index.mts'), 'utf8')).toContain("export { Order } from './messages/Order.mjs';");
    for (const format of FORMATS) {
      expect(JSON.parse(await readFile(join(dir, `pulled-${format}`, 'schema-sync.lock.json'), 'utf8'))).toMatchObject({ settings: { moduleFormat: format } });
    }
  });

  it.each(Object.keys(PROJECTS) as ProjectName[])('%s: tsc compiles it, and node runs the compiled main.js', async (name) => {
    expect(compiled.get(name)).toEqual({ code: 0, output: '' });
    const { code, output } = ran.get(name)!;
    expect(code, output).toBe(0);
    expect(JSON.parse(output)).toEqual({ mNum: 1001, names: ['Fill', 'Order'], byNumber: 'Fill' });
    // commonjs: compiled to CommonJS, `require` of the sibling module, whatever the folder's
    // marker says; mts: ES modules by their extension.
    const [index, sibling] = PROJECTS[name].format === 'mts' ? ['index.mjs', /from '\.\/messages\/Order\.mjs'/] : ['index.js', /require\("\.\/messages\/Order\.js"\)/];
    expect(await readFile(join(dir, name, PROJECTS[name].built, 'generated/schema', index), 'utf8')).toMatch(sibling);
  });
});

describe('a project set up without init: the first pull decides the module format and target as init does', () => {
  it.each(Object.keys(WITHOUT_INIT) as WithoutInit[])('%s: recorded, said in one line, and the project builds and runs', (name) => {
    const spec = WITHOUT_INIT[name];
    const pulled = pulledWithoutInit.get(name)!;
    expect(pulled.settings).toMatchObject(spec.settings);
    expect(pulled.stderr.split('\n').filter((line) => line.includes(spec.said))).toHaveLength(1);
    expect(pulled.stderr).toContain('recorded in the lockfile');
    if (pulled.tsc !== undefined) expect(pulled.tsc).toEqual({ code: 0, output: '' });
    expect(pulled.code, pulled.output).toBe(0);
    expect(JSON.parse(pulled.output)).toEqual({ mNum: 1001, names: ['Fill', 'Order'], byNumber: 'Fill' });
  });
});
