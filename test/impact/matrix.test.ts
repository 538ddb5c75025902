/**
 * The impact matrix of issue 40: nine kinds of change × every way of reaching a generated
 * declaration (test/impact/matrix.ts). Each cell either breaks the compile, and then every new
 * error in its files is attributed to its change and field, or still compiles, and then the change
 * is `referenced` there. No new error is left unattributed. The library function runs in this
 * process: one check of the project that imports the output folder, one of the package's consumer.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ts } from 'ts-morph';
import { emitFiles, type EmittedFile } from '../../src/emit/index.js';
import { impact, type ImpactResult } from '../../src/impact/impact.js';
import { LibFiles, overlayHost, SourceFileCache } from '../../src/impact/overlay-host.js';
import { loadProjects } from '../../src/impact/projects.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { removeDir, tempDir } from '../helpers/cli.js';
import { writeConsumer } from './evolution.js';
import { cellOf, KINDS, MATRIX_AFTER, MATRIX_BEFORE, matrixFiles, PACKAGE_WAY, WAYS } from './matrix.js';

const SOURCE = { baseUrl: 'http://127.0.0.1:1', query: {} } as const;
const output = (messages: Descriptor[], packageName?: string): Promise<EmittedFile[]> => emitFiles({ messages, source: SOURCE, fields: true, ...(packageName !== undefined && { package: packageName }) });
const overlay = (files: readonly EmittedFile[]) => new Map(files.map((file) => [file.path, file.text]));

/** What one cell found: new errors attributed (right or wrong), places referenced, new errors unattributed. */
interface Cell {
  attributed: { message: string; field?: string; code: number; at: string }[];
  referenced: string[];
  unattributed: string[];
}

let dir: string;
let results: ImpactResult[];
const PACKAGE = '@acme/schema';

beforeAll(async () => {
  dir = await tempDir('schema-sync-impact-matrix-');
  await writeConsumer(dir, matrixFiles());
  const [before, after, packageBefore, packageAfter] = await Promise.all([output(MATRIX_BEFORE), output(MATRIX_AFTER), output(MATRIX_BEFORE, PACKAGE), output(MATRIX_AFTER, PACKAGE)]);
  results = [
    impact({ project: join(dir, 'tsconfig.json'), outputRoot: join(dir, 'gen'), before, after, root: dir }),
    impact({ project: join(dir, 'app/tsconfig.json'), outputRoot: join(dir, 'app/node_modules', PACKAGE), before: packageBefore, after: packageAfter, root: dir }),
  ];
  // The consumer compiles against the old output: every error the new one brings is a new one.
  const shared = { cache: new SourceFileCache(), libs: LibFiles.shared() };
  for (const [project, files] of [
    ['tsconfig.json', before],
    ['app/tsconfig.json', packageBefore],
  ] as const) {
    const outputRoot = project === 'tsconfig.json' ? join(dir, 'gen') : join(dir, 'app/node_modules', PACKAGE);
    for (const p of loadProjects(join(dir, project))) {
      const program = ts.createProgram({ rootNames: p.rootNames, options: p.options, host: overlayHost(p.options, outputRoot, overlay(files), shared.cache, shared.libs) });
      // As tsc reports them, without checking TypeScript's own lib files (skipDefaultLibCheck):
      // the consumer's files and the package's declarations are checked; the generated `.ts`
      // modules of `gen/` say @ts-nocheck, as a project's compiler sees them.
      const checked = program.getSourceFiles().filter((file) => !program.isSourceFileDefaultLibrary(file));
      const diagnostics = [...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)])];
      const errors = diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
      expect(errors, p.configPath).toEqual([]);
    }
  }
}, 180_000);
afterAll(() => removeDir(dir));

function cells(): Map<string, Cell> {
  const byCell = new Map<string, Cell>();
  const cell = (file: string): Cell => {
    const at = cellOf(file);
    if (at === undefined) throw new Error(`a place outside the matrix: ${file}`);
    const key = `${at.kind}\0${at.way}`;
    let found = byCell.get(key);
    if (found === undefined) byCell.set(key, (found = { attributed: [], referenced: [], unattributed: [] }));
    return found;
  };
  for (const result of results) {
    for (const [message, entry] of Object.entries(result.messages)) {
      for (const use of entry.broken) cell(use.file).attributed.push({ message, ...(use.field !== undefined && { field: use.field }), code: use.code, at: `${use.file}:${use.line}:${use.column} ${use.message}` });
      for (const use of entry.referenced) cell(use.file).referenced.push(message);
    }
    for (const use of result.unattributed) cell(use.file).unattributed.push(`${use.file}:${use.line}:${use.column} TS${use.code} ${use.message}`);
  }
  return byCell;
}

/**
 * Which cells break (B) and which still compile (R), by kind, in the order of the ways: a way that
 * reaches only the constant cannot break on a record field's change, nor a record type on the
 * constant's; `keyof` breaks only where a key went; a renamed type keeps its number.
 */
const EXPECTED: Record<string, string> = {
  removed: 'BBBBBBBBBBBBBBBBBBBBBBB',
  renamed: 'BBBBRBBBBBBBBBBBBBBBBBB',
  mnum: 'BBRBBBRRBBRBBBBBBBBBBBB',
  action: 'BBRBBBRRBBRBBBBBBBBBBBB',
  flag: 'BBRBBBRRBBRBBBBBBBBBBBB',
  'field-removed': 'RRBRRRBBBBBBBBBBBBBBBBB',
  'field-type': 'RRBRRRBBBBRBBBBBBBBBBBB',
  'enum-value': 'RRBRRRBBBBRBBBBBBBBBBBB',
  'key-field': 'RRBRRRBBBBBBBBBBBBBBBBB',
};

/** The names a change goes by: a rename's old and new names. */
const namesOf = (message: string): string[] => (message === 'OldName' ? ['OldName', 'NewName'] : [message]);

describe('the impact matrix: every kind of change × every way of reaching it', () => {
  it('attributes every new error to its change and field, leaves none unattributed, and calls a use that still compiles referenced', () => {
    const found = cells();
    const table: string[] = [`| change | ${[...WAYS, PACKAGE_WAY].map((w) => w.title).join(' | ')} | attributed / referenced / unattributed |`];
    const wrong: string[] = [];
    const pattern: Record<string, string> = {};
    for (const kind of KINDS) {
      const row: string[] = [];
      const totals = { attributed: 0, referenced: 0, unattributed: 0 };
      for (const way of [...WAYS, PACKAGE_WAY]) {
        const cell = found.get(`${kind.id}\0${way.id}`) ?? { attributed: [], referenced: [], unattributed: [] };
        const right = cell.attributed.filter((a) => namesOf(kind.message).includes(a.message) && a.field === kind.field);
        for (const a of cell.attributed) if (!right.includes(a)) wrong.push(`${kind.id} × ${way.id}: ${a.message}${a.field === undefined ? '' : `.${a.field}`} for ${a.at}`);
        for (const u of cell.unattributed) wrong.push(`${kind.id} × ${way.id}: unattributed ${u}`);
        const referenced = cell.referenced.some((message) => namesOf(kind.message).includes(message));
        if (cell.attributed.length === 0 && cell.unattributed.length === 0 && !referenced) wrong.push(`${kind.id} × ${way.id}: neither broken nor referenced`);
        row.push(cell.attributed.length > 0 ? `B ${right.length}/${cell.attributed.length}` : referenced ? 'R' : '—');
        totals.attributed += right.length;
        totals.unattributed += cell.unattributed.length;
        if (cell.attributed.length === 0 && referenced) totals.referenced++;
        pattern[kind.id] = `${pattern[kind.id] ?? ''}${cell.attributed.length > 0 ? 'B' : 'R'}`;
      }
      table.push(`| ${kind.title} | ${row.join(' | ')} | ${totals.attributed} / ${totals.referenced} / ${totals.unattributed} |`);
    }
    if (process.env['IMPACT_MATRIX_TABLE'] !== undefined) console.log(table.join('\n'));
    expect(wrong).toEqual([]);
    expect(pattern).toEqual(EXPECTED);
  });
});
