/**
 * The head of generated TypeScript (`// @ts-nocheck`, writers.ts NO_CHECK_LINES): a project's
 * compiler reads the generated types but does not check the generated code again, and the tests
 * still check it. One ts-target folder with fields on (the five described example types), one
 * consumer that uses it right and one line that uses it wrong, compiled twice: as a project's
 * compiler sees the folder, and as the tests' `compileProjects` does (the directive made a plain
 * comment), with a type error planted in a message module.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as TS from 'typescript';
import { createRequire } from 'node:module';
import { emitFiles, type EmittedFile } from '../../src/emit/index.js';
import { NO_CHECK_LINES } from '../../src/emit/writers.js';
import { makeTempDir, removeTempDir, REPO_ROOT, writeEmitted } from './helpers.js';
import { describedExampleTypes } from './described-types.js';
import { compileProjects, STRICT_CONSUMER } from '../helpers/tsc.js';

const CONSUMER = `
import { OptionNbboQuote, type OptionNbboQuoteRecord } from './out/index.js';
export const mNum: 1840 = OptionNbboQuote.mNum;
export const record: OptionNbboQuoteRecord = {};
// The generated types are read: a wrong use is an error in the consumer.
export const wrong: 'not a number' = OptionNbboQuote.mNum;
`;

const SOURCE = { baseUrl: 'https://example.test', query: { cmd: 'getmsgtypes' } };

/** A type error planted in the code of a generated module, below its head. */
const PLANTED = "\nexport const planted: number = 'not a number';\n";

let dir: string;
let files: EmittedFile[];

beforeAll(async () => {
  dir = await makeTempDir('no-check');
  files = await emitFiles({ messages: await describedExampleTypes(), source: SOURCE, target: 'ts', fields: true });
  await writeEmitted(join(dir, 'out'), files);
  await writeFile(join(dir, 'consumer.ts'), CONSUMER);
  await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: STRICT_CONSUMER, files: ['consumer.ts'] }));
  const module = join(dir, 'out/messages/OptionNbboQuote.ts');
  await writeFile(module, (await readFile(module, 'utf8')) + PLANTED);
});

afterAll(() => removeTempDir(dir));

describe('generated TypeScript says @ts-nocheck', () => {
  it('every generated TypeScript module has the head after its banner; declarations and JavaScript do not', async () => {
    const typescript = files.filter((f) => /\.m?ts$/.test(f.path) && !f.path.endsWith('.d.ts'));
    expect(typescript.map((f) => f.path)).toEqual(expect.arrayContaining(['index.ts', 'types.ts', 'messages/OptionNbboQuote.ts', 'records-runtime.ts']));
    for (const file of typescript) expect(file.text, file.path).toMatch(/^(\/\/[^\n]*\n)*\n?(\/\/[^\n]*\n)?\/\/ @ts-nocheck\n/);
    const js = await emitFiles({ messages: await describedExampleTypes(), source: SOURCE, target: 'js+dts', fields: true });
    for (const file of js.filter((f) => !f.path.startsWith('records-runtime'))) expect(file.text, file.path).not.toContain(NO_CHECK_LINES[1]);
  });

  it("a project's compiler reads the generated types but not the generated code's errors", () => {
    const ts = createRequire(join(REPO_ROOT, 'package.json'))('typescript') as typeof TS;
    const config = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
    const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([expect.stringMatching(/^consumer\.ts: Type '1840' is not assignable to type '"not a number"'/)]);
  });

  it("the tests' compiler checks the generated code all the same", () => {
    const [result] = compileProjects(join(dir, 'tsconfig.json'));
    expect(result!.output).toContain("out/messages/OptionNbboQuote.ts");
    expect(result!.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(result!.output).toContain("consumer.ts");
    expect(result!.output.match(/error TS/g)).toHaveLength(2);
  });

  it("the tests' compiler refuses a file whose @ts-nocheck it would not turn off", async () => {
    const other = join(dir, 'other');
    await writeEmitted(other, [
      { path: 'unchecked.ts', text: '// @ts-nocheck\nexport const planted: number = 1;\n' },
      { path: 'tsconfig.json', text: JSON.stringify({ compilerOptions: STRICT_CONSUMER, files: ['unchecked.ts'] }) },
      { path: 'package.json', text: '{ "type": "module" }\n' },
    ]);
    expect(() => compileProjects(join(other, 'tsconfig.json'))).toThrow(/unchecked\.ts says @ts-nocheck and would go unchecked/);
  });
});
