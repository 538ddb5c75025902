/**
 * Reports of a real-sized evolution fit where they go (issue 29 item 2): 50 message types of the
 * example listing with 100 fields each, one field inserted near the start of every type (4,900
 * `pos` and 2,450 `fNum` shifts), a few removals, type changes and an enum value gone. The shifts
 * are one line per type; the markdown report and step summary stay under GitHub's 65,536
 * characters, the annotations within what GitHub shows; removals stay listed one by one. A second
 * evolution that no collapsing can shrink (thousands of removed fields) shows how a report is cut.
 * Each evolution is built and rated once for the file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendStepSummary } from '../../src/cli/github-actions.js';
import { ANNOTATIONS_SHOWN, buildReport, diffDescriptors, renderReport, REPORT_LIMITS, type DriftReport } from '../../src/diff/index.js';
import { LockfileText } from '../../src/lock/index.js';
import type { Descriptor } from '../../src/model/descriptor.js';
import { makeField, type FieldDescriptor } from '../../src/model/field.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';
import { releasePackage } from '../../src/run/release.js';
import { runInProcess } from '../cli/fake-io.js';
import { removeDir, ROOT, tempDir } from '../helpers/cli.js';
import { validateJson } from '../helpers/json-schema.js';
import { descriptor } from './descriptor-fixture.js';

/** GitHub refuses a pull-request body (and shows no step summary) over this many characters. */
const GITHUB_BODY_LIMIT = 65_536;
/** The runner cuts an annotation's message at this many characters. */
const ANNOTATION_LIMIT = 4_096;

const listing = JSON.parse(await readFile(join(ROOT, 'examples', 'descriptors.json'), 'utf8')) as Array<{ message: { name: string; mNum: number } }>;
const TYPES = listing.slice(0, 50).map(({ message }) => message);
const FIELDS = 100;

/** A type's fields: `f0` … `f99`, an enum at 20; numbered in sequence in even types (an insertion renumbers them), by name in odd ones. */
function fieldsOf(type: number, options: { inserted?: boolean; removed?: readonly number[]; long?: number[]; enumGone?: boolean; name?: (i: number) => string } = {}): FieldDescriptor[] {
  const name = options.name ?? ((i: number) => `f${i}`);
  const fields: FieldDescriptor[] = [];
  for (let i = 0; i < FIELDS; i++) {
    if (options.removed?.includes(i)) continue;
    if (options.inserted && i === 2) fields.push(makeField({ name: 'insertedField', fType: 'Int', fNum: type % 2 === 0 ? 102 : 9_999 }, {}));
    const eSet = i === 20 ? (options.enumGone ? ['None', 'NYSE'] : ['None', 'NYSE', 'NSDQ']) : undefined;
    fields.push(makeField({ name: name(i), fType: i === 20 ? 'Enum' : options.long?.includes(i) ? 'Long' : 'Int', ...(eSet && { eSet }) }, {}));
  }
  const sequential = type % 2 === 0;
  return fields.map((field, index) => ({ ...field, pos: index + 1, fNum: field.fNum ?? (sequential ? 100 + index : 1_000 + Number(field.name.replace(/\D/g, ''))) }));
}

const typeAt = (index: number, fields: FieldDescriptor[], hash: string): Descriptor => descriptor(TYPES[index]!.name, { mNum: TYPES[index]!.mNum, schemaHash: hash, fields });

/** The evolution: a field inserted third in every type; types 0–4 also lose f50, 5–6 change f10's type, 7 loses an enum value. */
const locked = TYPES.map((_, t) => typeAt(t, fieldsOf(t), 'AAAA'));
const fetched = TYPES.map((_, t) => typeAt(t, fieldsOf(t, { inserted: true, removed: t < 5 ? [50] : [], long: t === 5 || t === 6 ? [10] : [], enumGone: t === 7 }), 'BBBB'));
const REMOVALS = TYPES.slice(0, 5).map((type) => type.name);

/** How many fields kept their name but not their `key`, counted on the raw fields (not by the diff). */
function shifts(key: 'pos' | 'fNum'): number {
  return locked.reduce((sum, before, t) => sum + before.fields!.filter((field) => fetched[t]!.fields!.some((now) => now.name === field.name && now[key] !== field[key])).length, 0);
}

const report = buildReport({ changes: diffDescriptors({ locked, fetched }) });
const render = (format: 'text' | 'markdown' | 'github' | 'json', of: DriftReport = report) => renderReport(of, { format, command: 'check' });
/** The workflow commands of a `github` report, as kind and message as the runner reads it. */
const annotations = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('::'))
    .map((line) => ({ kind: line.slice(2, line.indexOf(' ')), message: line.slice(line.indexOf('::', 2) + 2).replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%25/g, '%') }));

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});
afterAll(() => removeDir(dir));

describe('a real-sized evolution with one field inserted in every type', () => {
  it('has more than 1,000 pos and 500 fNum shifts', () => {
    expect(shifts('pos')).toBeGreaterThan(1_000);
    expect(shifts('fNum')).toBeGreaterThan(500);
  });

  it('text and markdown: one line per type for its moves and one for its renumbering, none per field', () => {
    for (const format of ['text', 'markdown'] as const) {
      const text = render(format);
      expect(text).not.toMatch(/\.pos`?: `?\d+`? → /);
      expect(text).not.toMatch(/\.fNum`?: `?\d+`? → /);
      for (const [t, type] of TYPES.entries()) {
        const block = format === 'text' ? text.slice(text.indexOf(`  changed ${type.name}\n`)).split('\n  changed ')[0]! : text.split('\n').find((line) => line.includes(`| \`${type.name}\` |`))!;
        expect(block.match(/fields\.\*`?\.pos`?: \d+ fields moved/g), `${format} ${type.name}`).toHaveLength(1);
        expect(block.match(/fields\.\*`?\.fNum`?: \d+ fields renumbered/g) ?? [], `${format} ${type.name}`).toHaveLength(t % 2 === 0 ? 1 : 0);
      }
    }
    expect(render('text')).toContain(`fields.*.fNum: 98 fields renumbered, from f2 (102 → 103) to f99 (199 → 200) [RECORD_FIELDS_RENUMBERED]`);
    expect(render('text').split('\n').length).toBeLessThan(TYPES.length * 8);
  });

  it('keeps removals, type changes and enum value removals listed one by one, breaking first', () => {
    const text = render('text');
    for (const name of REMOVALS) expect(text).toContain(`  changed ${name}\n    schemaHash: "AAAA" → "BBBB" [SCHEMA_HASH_CHANGED] (dangerous)\n    fields.f50: "Int" → (absent) [RECORD_FIELD_REMOVED]`);
    expect(text).toContain(`fields.f10.fType: "Int" → "Long" [RECORD_FIELD_TYPE_CHANGED]`);
    expect(text).toContain(`fields.f20.eSet: "NSDQ" → (absent) [RECORD_ENUM_VALUE_REMOVED]`);
    expect(text).toContain(`fields.insertedField: (absent) → "Int" [RECORD_FIELD_ADDED] (safe)`);
    expect(report.summary).toMatchObject({ changed: 50, breaking: 8, dangerous: 42 });
  });

  it('markdown report and step summary: whole, and under 65,536 characters', async () => {
    const markdown = render('markdown');
    expect(markdown.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(markdown).not.toContain('left out');
    for (const name of REMOVALS) expect(markdown).toMatch(new RegExp(`\\| \`${name}\` \\|.*\`fields\\.f50\`: \`"Int"\` → \`\\(absent\\)\` \\[RECORD_FIELD_REMOVED\\]`));
    const summary = join(dir, 'summary.md');
    await appendStepSummary({ env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } } as never, markdown, () => {});
    expect((await readFile(summary, 'utf8')).length).toBeLessThan(GITHUB_BODY_LIMIT);
  });

  it('annotations: within what GitHub shows, each message bounded, every breaking change among them', () => {
    const shown = annotations(render('github'));
    for (const kind of ['error', 'warning', 'notice']) expect(shown.filter((a) => a.kind === kind).length).toBeLessThanOrEqual(ANNOTATIONS_SHOWN);
    for (const annotation of shown) expect(annotation.message.length).toBeLessThanOrEqual(ANNOTATION_LIMIT);
    expect(shown.filter((a) => a.kind === 'error')).toHaveLength(8);
    expect(shown.filter((a) => a.kind === 'warning')).toHaveLength(ANNOTATIONS_SHOWN);
    expect(shown.at(-1)).toEqual({ kind: 'notice', message: '32 more warnings left out here: GitHub shows 10 of each kind per step. The step summary lists the changes; --format json reports everything.' });
    for (const name of REMOVALS) expect(shown.some((a) => a.kind === 'error' && a.message.startsWith(`changed ${name}\n`) && a.message.includes('fields.f50: "Int" → (absent) [RECORD_FIELD_REMOVED]'))).toBe(true);
  });

  it('json: every shifted field with its values, valid against report.schema.json', async () => {
    const json = JSON.parse(render('json')) as { changes: Array<{ name: string; fields: Array<{ field: string; rule: string; before: Record<string, number>; after: Record<string, number> }> }> };
    const fields = (t: number, rule: string) => json.changes.find((change) => change.name === TYPES[t]!.name)!.fields.find((field) => field.rule === rule)!;
    const moved = fields(10, 'RECORD_FIELDS_MOVED');
    expect(moved.field).toBe('fields.*.pos');
    expect(Object.keys(moved.before)).toEqual(Array.from({ length: FIELDS - 2 }, (_, i) => `f${i + 2}`));
    expect([moved.before['f2'], moved.after['f2'], moved.before['f99'], moved.after['f99']]).toEqual([3, 4, 100, 101]);
    expect(fields(10, 'RECORD_FIELDS_RENUMBERED')).toMatchObject({ field: 'fields.*.fNum', before: { f2: 102, f99: 199 }, after: { f2: 103, f99: 200 } });
    // f50 removed behind the insertion: the fields after it are where they were.
    expect(Object.keys(fields(0, 'RECORD_FIELDS_MOVED').before)).toEqual(Array.from({ length: 48 }, (_, i) => `f${i + 2}`));
    const schema = JSON.parse(await readFile(join(ROOT, 'report.schema.json'), 'utf8')) as Record<string, unknown>;
    expect(validateJson(schema, json)).toEqual([]);
  });

  it('end to end: `diff --format markdown` of two lockfiles prints the report and writes it to the step summary, each under 65,536 characters', async () => {
    const lockfile = (messages: Descriptor[]) => LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: {}, messages }, 'x').text;
    // Ten of the types: the CLI's own path, not the size, is what this adds.
    await writeFile(join(dir, 'base.json'), lockfile(locked.slice(0, 10)));
    await writeFile(join(dir, 'head.json'), lockfile(fetched.slice(0, 10)));
    const summary = join(dir, 'e2e-summary.md');
    const run = await runInProcess(['diff', 'base.json', 'head.json', '--format', 'markdown'], { cwd: dir, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary } });
    expect(run.code).toBe(1);
    expect(run.stdout.length).toBeLessThan(GITHUB_BODY_LIMIT);
    expect(run.stdout).toContain('`fields.*.pos`: 98 fields moved');
    expect((await readFile(summary, 'utf8')).length).toBeLessThan(GITHUB_BODY_LIMIT);
  });
});

describe('a report no collapsing can shrink: 80 long-named fields removed from each of 50 types', () => {
  const name = (i: number) => `clientRiskMetricNumber${i}_AccountLevelValue`;
  const removed = Array.from({ length: 80 }, (_, i) => i + 10);
  const big = buildReport({
    changes: diffDescriptors({
      locked: TYPES.map((_, t) => typeAt(t, fieldsOf(t, { name }), 'AAAA')),
      fetched: TYPES.map((_, t) => typeAt(t, fieldsOf(t, { name, removed }).map((field, i) => ({ ...field, pos: i + 1, fNum: 1_000 + i })), 'BBBB')),
    }),
  });

  it('markdown is cut to fit: the summary, the first rows whole, each cell bounded, then what was left out', () => {
    const markdown = render('markdown', big);
    expect(markdown.length).toBeLessThanOrEqual(REPORT_LIMITS.markdown);
    const lines = markdown.split('\n');
    expect(lines.slice(0, 3)).toEqual(['### Schema drift', '', 'Drift: 50 message types (50 breaking, 0 dangerous, 0 safe)']);
    const rows = lines.filter((line) => line.startsWith('| breaking |'));
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.map((row) => row.split(' | ')[2])).toEqual(big.changes.slice(0, rows.length).map((change) => `\`${change.name}\``));
    for (const row of rows) {
      expect(row.length).toBeLessThan(REPORT_LIMITS.cell + 200);
      expect(row).toMatch(/<br>… and \d+ more field changes \(--format json lists them all\) \|$/);
    }
    expect(lines.at(-1)).toBe(
      `**… and ${50 - rows.length} more changes, left out to keep this report under 60,000 characters.** The full report: \`--format json\` (between two lockfiles: \`schema-sync diff --format json <base> <head>\`).`,
    );
  });

  it('annotations: ten errors, each cut to fit, then one notice of how many more', () => {
    const shown = annotations(render('github', big));
    expect(shown.map((a) => a.kind)).toEqual([...Array(ANNOTATIONS_SHOWN).fill('error'), 'notice']);
    for (const annotation of shown.slice(0, -1)) {
      expect(annotation.message.length).toBeLessThanOrEqual(REPORT_LIMITS.annotation);
      expect(annotation.message).toMatch(/\n… and \d+ more field changes \(--format json lists them all\)$/);
    }
    expect(shown.at(-1)!.message).toMatch(/^40 more errors left out here/);
  });

  it('a changelog section is cut to its own length', () => {
    const lockfile = (version: string) =>
      LockfileText.of({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, settings: { package: '@acme/schema', packageVersion: version }, messages: [] }, 'schema-sync.lock.json');
    const released = releasePackage(lockfile('1.0.0'), lockfile('1.0.0'), undefined, big).settings();
    expect(released.packageVersion).toBe('2.0.0');
    expect(released.changelog![0]!.notes.length).toBeLessThanOrEqual(REPORT_LIMITS.changelog);
    expect(released.changelog![0]!.notes).toContain('left out to keep this report under 20,000 characters');
  });

});

describe('a cut cell or annotation keeps the worst field changes', () => {
  const many = Array.from({ length: 300 }, (_, i) => makeField({ name: `a${i}`, fType: 'Int', pos: i + 1, desc: 'old' }, {}));
  const zz = makeField({ name: 'zz', fType: 'Int', pos: 301 }, {});
  const mild = buildReport({
    changes: diffDescriptors({
      locked: [descriptor('Quote', { fields: [...many, zz] })],
      fetched: [descriptor('Quote', { schemaHash: 'BBBB', fields: many.map((field) => ({ ...field, desc: 'new' })) })],
    }),
  });

  it.each(['markdown', 'github'] as const)('%s', (format) => {
    const text = render(format, mild);
    expect(text).toMatch(/fields\.zz`?: `?"Int"`? → `?\(absent\)`? \[RECORD_FIELD_REMOVED\]/);
    expect(text).toMatch(/… and \d+ more field changes \(--format json lists them all\)/);
  });
});
