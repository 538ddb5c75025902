/**
 * The consumer matrix: a generated package (target js+dts, built CLI, from three types of the
 * example's lockfile: the routes and module systems are what is tested here, scale is not)
 * installed by other projects the three ways the README names, each project type-checked by its
 * own `tsc` run and run by plain `node` or bundled by esbuild:
 *
 * | project | installs the package as | tsc | runs |
 * |---|---|---|---|
 * | `esm` (`"type": "module"`) | the tarball `npm pack` writes in the output folder | `module: nodenext`, ES modules | `node` `import` |
 * | `cjs` (no `"type"`) | a `file:` dependency (a link) | `module: nodenext`, CommonJS | `node` `require` (Node's `require(esm)`) |
 * | `bundler` | a workspace package | `moduleResolution: bundler` | an esbuild bundle of one constant |
 *
 * Every case asserts a literal type (a type-level identity that fails to compile when a literal
 * widens; the `.mjs`/`.cjs` files are type-checked too, through JSDoc) and a value at run time.
 * npm runs offline (the package has no dependencies) with a cache of its own.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ROOT, runBin, runCommand, tempDir } from '../helpers/cli.js';
import { compileProjects, type TscResult } from '../helpers/tsc.js';

const NAME = 'example-schema-types';
/** The message types of the package. */
const TYPES = ['AccountRiskRecordV5', 'AggregateCount', 'AuctionNotice'];
/** One type of the example listing, and another whose data must stay out of a bundle of the first. */
const HASH = { AuctionNotice: '76BC18DA157E7B32', AccountRiskRecordV5: '01DBE4F471A65AC0' };

/** Type-level identity: `true` only when A and B are the same type (a widened literal is not). */
const EQUAL = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function holds<T extends true>(): T | undefined {
  return undefined;
}`;

/** The type assertions every TypeScript consumer makes, after its import of the package. */
const TYPE_ASSERTIONS = `${EQUAL}
holds<Equal<typeof AuctionNotice.mNum, 1063>>();
holds<Equal<typeof AuctionNotice.actions, readonly ['select']>>();
holds<Equal<typeof AuctionNotice.staticFilterFields, readonly ['noticeNumber']>>();
holds<Equal<MessageByName<'AuctionNotice'>['schemaHash'], '${HASH.AuctionNotice}'>>();
holds<Equal<(typeof messagesByNumber)[1063], typeof AuctionNotice>>();
holds<Equal<(typeof messages)['AuctionNotice'], AuctionNotice>>();
holds<Equal<Equal<typeof AuctionNotice.mNum, number>, false>>();
export const mNum = AuctionNotice.mNum satisfies 1063;
export const name: MessageName = 'AuctionNotice';
export const descriptor: MessageDescriptor = messages[name];
// @ts-expect-error not a message name
export const notAName: MessageName = 'NoSuchType';
`;

/** The one bit of Node's types the consumers use, instead of @types/node (which costs each tsc run seconds). */
const PROCESS_TYPES = 'declare const process: { stdout: { write(text: string): boolean } };\n';

const TS_IMPORTS = `import { AuctionNotice, messages, messagesByNumber, type MessageByName, type MessageDescriptor, type MessageName } from '${NAME}';`;

/**
 * Strict settings of a demanding consumer; each project adds its module settings. TypeScript's
 * own lib files are not what is tested (skipDefaultLibCheck; the package's .d.ts are checked).
 */
const STRICT = { strict: true, noUncheckedIndexedAccess: true, exactOptionalPropertyTypes: true, target: 'es2022', lib: ['es2022'], types: [], noEmit: true, allowJs: true, checkJs: true, skipDefaultLibCheck: true };

const PROJECTS = {
  esm: {
    packageJson: { name: 'esm-consumer', private: true, type: 'module' },
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    files: {
      'check.ts': `${TS_IMPORTS}\n${TYPE_ASSERTIONS}`,
      'run.mjs': `import { AuctionNotice, messages, messageNames } from '${NAME}';
/** @type {1063} */
const mNum = AuctionNotice.mNum;
/** @type {readonly ['select']} */
const actions = AuctionNotice.actions;
process.stdout.write(JSON.stringify({ mNum, actions, same: messages.AuctionNotice === AuctionNotice, count: messageNames.length }));
`,
    },
  },
  cjs: {
    packageJson: { name: 'cjs-consumer', private: true },
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' },
    files: {
      'check.ts': `${TS_IMPORTS}\n${TYPE_ASSERTIONS}`,
      'run.cjs': `const { AuctionNotice, messages, messageNames } = require('${NAME}');
/** @type {1063} */
const mNum = AuctionNotice.mNum;
/** @type {readonly ['select']} */
const actions = AuctionNotice.actions;
process.stdout.write(JSON.stringify({ mNum, actions, same: messages.AuctionNotice === AuctionNotice, count: messageNames.length }));
`,
    },
  },
  bundler: {
    packageJson: { name: 'bundler-consumer', private: true, type: 'module', dependencies: { [NAME]: '^1.0.0' } },
    compilerOptions: { module: 'esnext', moduleResolution: 'bundler' },
    files: {
      'check.ts': `${TS_IMPORTS}\n${TYPE_ASSERTIONS}`,
      // The bundle's entry: one constant, so the bundle must hold that type's data only.
      'entry.ts': `import { AuctionNotice } from '${NAME}';
${EQUAL}
holds<Equal<typeof AuctionNotice.schemaHash, '${HASH.AuctionNotice}'>>();
export const hash = AuctionNotice.schemaHash;
process.stdout.write(JSON.stringify({ hash, mNum: AuctionNotice.mNum }));
`,
    },
  },
} as const;

type ProjectName = keyof typeof PROJECTS;

let root: string;
let packed: { files: { path: string }[]; filename: string };
let tsc: Record<ProjectName, TscResult>;

/** npm, offline, with a cache of its own and nothing but what it is asked. */
async function npm(cwd: string, ...args: string[]): Promise<string> {
  const result = await runCommand('npm', [...args, '--offline', '--no-audit', '--no-fund', '--cache', join(root, '.npm-cache')], cwd);
  if (result.code !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} failed: ${result.stderr}`);
  return result.stdout;
}

async function writeProject(name: ProjectName): Promise<void> {
  const project = PROJECTS[name];
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(project.packageJson));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...STRICT, ...project.compilerOptions }, include: ['process.d.ts', ...Object.keys(project.files)] }));
  await writeFile(join(dir, 'process.d.ts'), PROCESS_TYPES);
  for (const [file, text] of Object.entries(project.files)) await writeFile(join(dir, file), text);
}

beforeAll(async () => {
  root = await tempDir('schema-sync-consumers-');
  // The producer: the example's lockfile kept inside the output folder (as the demo does), so
  // the tarball shows that only generated files are packed.
  const schema = join(root, 'producer/schema');
  await mkdir(schema, { recursive: true });
  const lockfile = JSON.parse(await readFile(join(ROOT, 'generated-example/schema-sync.lock.json'), 'utf8')) as { messages: Record<string, unknown> };
  lockfile.messages = Object.fromEntries(Object.entries(lockfile.messages).filter(([name]) => TYPES.includes(name)));
  await writeFile(join(schema, 'schema-sync.lock.json'), JSON.stringify(lockfile, null, 2));
  const generated = await runBin(['generate', '--out', 'schema', '--lockfile', 'schema/schema-sync.lock.json'], { cwd: join(root, 'producer'), env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
  if (generated.code !== 0) throw new Error(generated.stderr);
  await Promise.all((Object.keys(PROJECTS) as ProjectName[]).map(writeProject));
  // The bundler project is a workspace next to the package, as in a monorepo.
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['producer/schema', 'bundler'] }));
  const [packJson] = await Promise.all([npm(schema, 'pack', '--json'), npm(join(root, 'cjs'), 'install', '../producer/schema'), npm(root, 'install')]);
  packed = (JSON.parse(packJson) as (typeof packed)[])[0]!;
  await npm(join(root, 'esm'), 'install', join(schema, packed.filename));
  const [esm, cjs, bundler] = compileProjects(...(Object.keys(PROJECTS) as ProjectName[]).map((name) => join(root, name, 'tsconfig.json')));
  tsc = { esm: esm!, cjs: cjs!, bundler: bundler! };
}, 120_000);

afterAll(async () => {
  await removeDir(root);
});

describe('the generated package', () => {
  it('packs only its generated files: no manifest, no lockfile', async () => {
    expect(packed.filename).toBe(`${NAME}-1.0.0.tgz`);
    const paths = packed.files.map((file) => file.path);
    expect(paths.filter((path) => !path.startsWith('messages/'))).toEqual(['CHANGELOG.md', 'README.md', 'index.d.ts', 'index.js', 'package.json', 'types.d.ts']);
    expect(paths.filter((path) => path.startsWith('messages/'))).toEqual(TYPES.flatMap((type) => [`messages/${type}.d.ts`, `messages/${type}.js`]));
  });

  it('is installed as a tarball, a file: link and a workspace package', async () => {
    const dependency = async (project: string) => (JSON.parse(await readFile(join(root, project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[NAME];
    expect(await dependency('esm')).toMatch(/^file:.*\.tgz$/);
    expect(await dependency('cjs')).toBe('file:../producer/schema');
    expect(JSON.parse(await readFile(join(root, 'node_modules', NAME, 'package.json'), 'utf8')).version).toBe('1.0.0');
  });
});

describe.each(Object.keys(PROJECTS) as ProjectName[])('the %s consumer', (name) => {
  it('type-checks with its own tsc (literal types asserted)', () => {
    expect(tsc[name].output).toBe('');
    expect(tsc[name].code).toBe(0);
  });
});

describe('at run time', () => {
  const expected = { mNum: 1063, actions: ['select'], same: true, count: TYPES.length };

  it('plain node imports it (ES module)', async () => {
    const run = await runCommand(process.execPath, ['run.mjs'], join(root, 'esm'));
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it('plain node requires it (CommonJS, through require(esm)), without a warning', async () => {
    const run = await runCommand(process.execPath, ['run.cjs'], join(root, 'cjs'));
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual(expected);
  });

  it('esbuild bundles one constant: the bundle holds that type and no other', async () => {
    const bundle = await build({ entryPoints: [join(root, 'bundler/entry.ts')], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'silent' });
    const text = bundle.outputFiles[0]!.text;
    expect(text).toContain(HASH.AuctionNotice);
    expect(text).not.toContain(HASH.AccountRiskRecordV5);
    expect(text).not.toContain('messagesByNumber');
    expect(text.length).toBeLessThan(1_000);
    await writeFile(join(root, 'bundler/bundle.mjs'), text);
    const run = await runCommand(process.execPath, ['bundle.mjs'], join(root, 'bundler'));
    expect(JSON.parse(run.stdout)).toEqual({ hash: HASH.AuctionNotice, mNum: 1063 });
  });
});
