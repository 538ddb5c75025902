/**
 * `init` detects the module format of the generated files from the project's tsconfig and
 * package.json (issue 29 item 4): the choice as a table over the facts, then the facts read from
 * real files (comments and `extends` as tsc reads them) through `init` in this process.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseModuleFormat, type ProjectModuleFacts } from '../../src/cli/commands/init-module-format.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { runInProcess } from './fake-io.js';

const tsconfig = (module: string, more: Partial<NonNullable<ProjectModuleFacts['tsconfig']>> = {}) => ({ shown: 'tsconfig.json', module, verbatimModuleSyntax: false, ...more });

describe('chooseModuleFormat', () => {
  const rows: { name: string; facts: ProjectModuleFacts; format: string | undefined; reason: RegExp; caution?: RegExp }[] = [
    { name: 'no tsconfig in a package: a JavaScript project, target js+dts', facts: { packageType: 'commonjs' }, format: undefined, reason: /^no tsconfig\.json found: a JavaScript project, so the output is \.js ES modules/ },
    { name: 'no tsconfig and no package.json: the default, said so', facts: { packageType: undefined }, format: undefined, reason: /^no tsconfig\.json found; set "moduleFormat": "commonjs" if a CommonJS build compiles/ },
    { name: 'an unreadable tsconfig: the default, with why', facts: { packageType: undefined, unreadable: 'tsconfig.json: bad' }, format: undefined, reason: /^the tsconfig could not be read \(tsconfig\.json: bad\)/ },
    { name: 'module commonjs (TypeScript ≤ 5.8 tsc --init)', facts: { packageType: 'commonjs', tsconfig: tsconfig('commonjs') }, format: 'commonjs', reason: /^tsconfig\.json compiles to CommonJS \(module commonjs\)$/ },
    { name: 'module commonjs in an ES module package: tsc still writes CommonJS', facts: { packageType: 'module', tsconfig: tsconfig('commonjs') }, format: 'commonjs', reason: /module commonjs/ },
    { name: 'module node16 in a CommonJS package', facts: { packageType: 'commonjs', tsconfig: tsconfig('node16') }, format: 'commonjs', reason: /^tsconfig\.json has module node16 in a CommonJS package: tsc compiles the generated files to CommonJS$/ },
    { name: 'module nodenext without a package.json (Node: CommonJS)', facts: { packageType: undefined, tsconfig: tsconfig('nodenext') }, format: 'commonjs', reason: /module nodenext in a CommonJS package/ },
    { name: 'module nodenext in an ES module package', facts: { packageType: 'module', tsconfig: tsconfig('nodenext') }, format: 'esm', reason: /^tsconfig\.json has module nodenext and package\.json says "type": "module"$/ },
    {
      name: 'TypeScript 6 tsc --init in a CommonJS package (nodenext, verbatimModuleSyntax): .mts ES modules, which compile and run from any outDir',
      facts: { packageType: 'commonjs', tsconfig: tsconfig('nodenext', { verbatimModuleSyntax: true }) },
      format: 'mts',
      reason: /verbatimModuleSyntax in a CommonJS package: the generated files are \.mts ES modules, compiled to \.mjs wherever tsc puts them; CommonJS code imports them with `import schema = require\('\.\/…\/index\.mjs'\)`$/,
    },
    { name: 'module node16 with verbatimModuleSyntax: cautioned (TS1479)', facts: { packageType: 'commonjs', tsconfig: tsconfig('node16', { verbatimModuleSyntax: true }) }, format: 'mts', reason: /node16/, caution: /^under module node16 a CommonJS file cannot import an ES module \(TS1479\): use module nodenext/ },
    { name: 'module esnext (a bundler)', facts: { packageType: 'commonjs', tsconfig: tsconfig('esnext') }, format: 'esm', reason: /^tsconfig\.json keeps ES modules \(module esnext\)$/ },
    { name: 'module preserve', facts: { packageType: undefined, tsconfig: tsconfig('preserve') }, format: 'esm', reason: /module preserve/ },
    { name: 'module amd: the default', facts: { packageType: undefined, tsconfig: tsconfig('amd') }, format: undefined, reason: /module amd, which schema-sync does not write for/ },
  ];
  it.each(rows)('$name', ({ facts, format, reason, caution }) => {
    const choice = chooseModuleFormat(facts);
    expect(choice.format).toBe(format);
    expect(choice.reason).toMatch(reason);
    if (caution === undefined) expect(choice.caution).toBeUndefined();
    else expect(choice.caution).toMatch(caution);
  });
});

describe('init writes the detected module format into the config, and says what it detected', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await tempDir();
    // The repository root: the upward search for a config ends here.
    await mkdir(join(dir, '.git'));
  });
  afterEach(() => removeDir(dir));

  const initHere = async (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    const run = await runInProcess(['init'], { cwd: dir });
    const config = JSON.parse(await readFile(join(dir, 'schema-sync.config.json'), 'utf8')) as Record<string, unknown>;
    return { run, config };
  };

  it('module commonjs through extends, in a tsconfig with comments (as tsc --init writes them)', async () => {
    const { run, config } = await initHere({
      'package.json': JSON.stringify({ name: 'app', version: '1.0.0' }),
      'tsconfig.base.json': '{ "compilerOptions": { "module": "commonjs", /* as TypeScript 5.8 writes it */ "strict": true, } }',
      'tsconfig.json': '{\n  // the project\n  "extends": "./tsconfig.base.json",\n  "compilerOptions": { "outDir": "dist" }\n}\n',
    });
    expect(run.code).toBe(0);
    expect(config['moduleFormat']).toBe('commonjs');
    expect(run.stderr).toContain('Module format commonjs: tsconfig.json compiles to CommonJS (module commonjs).\n');
  });

  it('TypeScript 6 tsc --init with an outDir in a CommonJS package: mts', async () => {
    const { run, config } = await initHere({
      'package.json': JSON.stringify({ name: 'app', type: 'commonjs' }),
      'tsconfig.json': '{ "compilerOptions": { "module": "nodenext", "verbatimModuleSyntax": true, "outDir": "./dist" } }',
    });
    expect(config['moduleFormat']).toBe('mts');
    expect(run.stderr).toMatch(/^Module format mts: tsconfig\.json has module nodenext and verbatimModuleSyntax in a CommonJS package/m);
    expect(run.stderr).not.toContain('warning');
  });

  it('an ES module package under nodenext: esm', async () => {
    const { run, config } = await initHere({
      'package.json': JSON.stringify({ name: 'app', type: 'module' }),
      'tsconfig.json': '{ "compilerOptions": { "module": "nodenext", "verbatimModuleSyntax": true } }',
    });
    expect(config['moduleFormat']).toBe('esm');
    expect(run.stderr).toContain('Module format esm: tsconfig.json has module nodenext and package.json says "type": "module".\n');
  });

  it('no tsconfig: a JavaScript project gets target js+dts, said so', async () => {
    const { run, config } = await initHere({ 'package.json': '{}' });
    expect(config).not.toHaveProperty('moduleFormat');
    expect(config['target']).toBe('js+dts');
    expect(run.stderr).toContain('Target js+dts: no tsconfig.json found: a JavaScript project, so the output is .js ES modules (which `import` and `require` load) with .d.ts declarations (target js+dts).\n');
  });
});
