/**
 * Message types named like a global of TypeScript or JavaScript (issue 42, item 6): the index
 * imports every message type by its name, so one named `Extract` stood for the global there and
 * `index.ts` failed with TS2315 ("Type 'Extract' is not generic") while the pull exited 0. The
 * generated code depends on no global name a message can take: the globals the output uses are
 * found by compiling it (every identifier the checker resolves to a declaration of TypeScript's
 * default library), a listing with one message type named after each of them (and after the
 * common ones it might use) is pulled in every target, with and without record types, and a
 * strict consumer of each output compiles.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TS from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchemaSet } from '../../src/server/index.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { runCli } from '../helpers/in-process.js';
import { wireElement } from '../helpers/listing.js';
import { startTestServer, type TestServer } from '../helpers/server/index.js';
import { compileProjects, STRICT_CONSUMER } from '../helpers/tsc.js';

/** Globals generated code commonly reaches for, whether or not today's output uses them. */
const COMMON = ['Extract', 'Exclude', 'Record', 'Readonly', 'ReadonlyArray', 'Array', 'Date', 'Map', 'Set', 'Promise', 'Partial', 'Pick', 'Omit', 'NonNullable', 'Error', 'JSON', 'Object', 'String', 'Number', 'Boolean', 'BigInt', 'Symbol', 'Iterable', 'PropertyKey'];

const fieldsOf = (): SchemaSet[string] => [
  { pos: 1, name: 'ticker', fNum: 10, isPkey: 'Yes', fType: 'TickerKey' },
  { pos: 2, name: 'side', fNum: 11, isPkey: 'No', fType: 'Enum', eSet: 'None,Buy,Sell' },
  { pos: 3, name: 'size', fNum: 12, isPkey: 'No', fType: 'Long' },
  { pos: 4, name: 'at', fNum: 13, isPkey: 'No', fType: 'DateTime' },
];

const listingOf = (names: readonly string[]) => names.map((name, i) => wireElement({ name, mNum: 100 + i, schemaHash: `H${i}`, actions: 'SIU', mToken: `Tok${i % 3}` }));

const TARGETS = [
  ['ts', ['--target', 'ts']],
  ['js+dts', ['--target', 'js+dts']],
  ['ts, fields', ['--target', 'ts', '--fields']],
  ['js+dts, fields', ['--target', 'js+dts', '--fields']],
] as const;

let server: TestServer;
let dir: string;
beforeAll(async () => {
  dir = await tempDir('schema-sync-globals-');
  server = await startTestServer({ listing: listingOf(['Order', 'Trade']), schemas: { Order: fieldsOf(), Trade: fieldsOf() } });
});
afterAll(async () => {
  await server.close();
  await removeDir(dir);
});

async function pullInto(out: string, args: readonly string[]): Promise<void> {
  const run = await runCli(['pull', '--base-url', server.url, '--out', out, '--lockfile', `${out}.lock.json`, '--quiet', ...args], { cwd: dir, env: { SCHEMA_SYNC_CACHE_DIR: 'off' } });
  expect(run.code, run.stderr).toBe(0);
}

/** The names of TypeScript's default library that the files under `folder` use. */
function globalsUsed(folder: string): Set<string> {
  const ts = createRequire(import.meta.url)(join(ROOT, 'node_modules/typescript')) as typeof TS;
  const files = ts.sys.readDirectory(folder, ['.ts', '.mts', '.js']);
  const program = ts.createProgram(files, { ...ts.getDefaultCompilerOptions(), allowJs: true, checkJs: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: [] });
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  for (const file of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(file)) continue;
    const visit = (node: TS.Node): void => {
      if (ts.isIdentifier(node)) {
        const declarations = checker.getSymbolAtLocation(node)?.declarations ?? [];
        if (declarations.length > 0 && declarations.every((declaration) => program.isSourceFileDefaultLibrary(declaration.getSourceFile()))) found.add(node.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

describe('message types named like the globals the output uses', () => {
  it('compile in every target, with and without record types (tsc --strict)', { timeout: 300_000 }, async () => {
    // The outputs with record types hold those without: one probe of each kind of file.
    await pullInto('probe/ts', ['--target', 'ts', '--fields']);
    await pullInto('probe/js', ['--target', 'js+dts', '--fields']);
    const used = globalsUsed(join(dir, 'probe'));
    // Identifiers that are no type or value a message could shadow by its name (members such as `length` resolve to the library too).
    const names = [...new Set([...COMMON, ...[...used].filter((name) => /^[A-Z]/.test(name))])].sort();
    server.setListing(listingOf(names));
    server.setOptions({ schemas: Object.fromEntries(names.map((name) => [name, fieldsOf()])) });
    const consumers: string[] = [];
    for (const [label, args] of TARGETS) {
      const out = `globals-${label.replace(/\W+/g, '-')}`;
      await pullInto(out, args);
      const consumer = join(dir, `consumer-${out}`);
      mkdirSync(consumer);
      writeFileSync(join(consumer, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(
        join(consumer, 'use.ts'),
        [
          `import { messages, type MessageName, type MessageToken, type MessageAction } from '../${out}/index.js';`,
          "const name: MessageName = 'Extract';",
          "const token: MessageToken = 'Tok0';",
          "const action: MessageAction = 'select';",
          'export const used: readonly (string | number)[] = [messages[name].mNum, token, action];',
          '',
        ].join('\n'),
      );
      // Issue 42 item 10 (ts): a monorepo's isolatedDeclarations needs each exported constant's type written out.
      const isolated = (args as readonly string[]).includes('ts') ? { isolatedDeclarations: true, declaration: true } : {};
      writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...STRICT_CONSUMER, ...isolated, noEmit: true, types: [] }, include: ['use.ts', `../${out}/**/*`] }));
      consumers.push(join(consumer, 'tsconfig.json'));
    }
    // Issue 42 item 10 (js+dts): the JavaScript checked as such (checkJs, strict) has no implicit any
    // (TS7006, TS7053: index.js's records API says its parameters' types in JSDoc).
    const checkJs = join(dir, 'consumer-checkjs');
    mkdirSync(checkJs);
    writeFileSync(join(checkJs, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(checkJs, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...STRICT_CONSUMER, allowJs: true, checkJs: true, noEmit: true, types: [] }, include: ['../globals-js-dts/**/*.js', '../globals-js-dts-fields/**/*.js'] }));
    consumers.push(join(checkJs, 'tsconfig.json'));
    const results = compileProjects(...consumers);
    expect(results.map((result) => result.output)).toEqual(consumers.map(() => ''));
    expect(names).toContain('Extract');
  });
});
