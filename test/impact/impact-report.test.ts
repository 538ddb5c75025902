/**
 * Drift impact in the reports (issue 40): with `--impact` the text and markdown reports lead with
 * what breaks the projects checked, then what they use that still compiles, then one line naming
 * the changes they do not use; a compiler message is quoted as one readable line, whole in JSON.
 */
import { describe, expect, it } from 'vitest';
import { renderReport } from '../../src/diff/index.js';
import { withImpact } from '../../src/diff/impact-report.js';
import { MESSAGE_CHARS, shortMessage } from '../../src/diff/impact-wording.js';
import type { ImpactResult } from '../../src/model/impact.js';
import { sampleReport } from '../diff/report-fixture.js';

/** What TS2339 prints for a registry's type: several hundred characters of type. */
const REGISTRY = `{ readonly OldType: { readonly name: "OldType"; readonly mNum: 1; readonly schemaHash: "6F89"; readonly actions: readonly ["select"]; }; readonly SomeType: { readonly name: "SomeType"; readonly mNum: 2; ... 261 more ...; readonly Zeta: { ...; }; }`;
const LONG = `Property 'Was' does not exist on type '${REGISTRY}'.\n  Did you mean 'NewName'?`;

/** The sample report's changes on a project: the rename breaks two lines, SomeType is used and compiles, the rest is not used. */
const RESULT: ImpactResult = {
  projects: ['tsconfig.json'],
  messages: {
    Was: {
      broken: [
        { file: 'src/a.ts', line: 3, column: 7, code: 2339, message: LONG },
        { file: 'src/b.ts', line: 1, column: 10, code: 2305, message: "Module '\"./gen/index.js\"' has no exported member 'Was'." },
      ],
      referenced: [],
    },
    SomeType: { broken: [], referenced: [{ file: 'src/c.ts', line: 2, column: 1 }] },
    OldType: { broken: [], referenced: [] },
    Fresh: { broken: [], referenced: [] },
  },
  unattributed: [{ file: 'src/d.ts', line: 9, column: 1, code: 2322, message: "Type '6' is not assignable to type '5'." }],
};

const report = () => withImpact(sampleReport(), RESULT);

describe('shortMessage', () => {
  it.each([
    ['a short message stays as it is', "Type '\"Sell\"' is not comparable to type '\"Buy\"'.", "Type '\"Sell\"' is not comparable to type '\"Buy\"'."],
    ['only the first line of a chain', "Type 'A' is not assignable to type 'B'.\n  Types of property 'x' are incompatible.", "Type 'A' is not assignable to type 'B'."],
    ['a long type printout is cut to its beginning', LONG, `Property 'Was' does not exist on type '${REGISTRY.slice(0, 59).trimEnd()}…'.`],
  ])('%s', (_, given, want) => {
    expect(shortMessage(given)).toBe(want);
  });

  it('is never longer than the limit, and keeps the beginning', () => {
    const words = `Argument of type ${'x'.repeat(50)} `.repeat(10);
    const short = shortMessage(words);
    expect(short.length).toBeLessThanOrEqual(MESSAGE_CHARS);
    expect(short.startsWith('Argument of type xxxx')).toBe(true);
    expect(short.endsWith('…')).toBe(true);
  });
});

describe('reports with --impact', () => {
  it('text: what breaks first, then what is used and compiles, then one line of the changes not used', () => {
    const text = renderReport(report(), { format: 'text', command: 'check' });
    const breaks = text.indexOf('Breaks tsconfig.json');
    const used = text.indexOf('Used by tsconfig.json, still compiles');
    expect([breaks, used].every((at) => at >= 0)).toBe(true);
    expect(text).toContain('Not used by tsconfig.json (2): removed OldType, added Fresh');
    expect(breaks).toBeLessThan(used);
    expect(used).toBeLessThan(text.indexOf('Not used by'));
    expect(text).toContain('  breaking · renamed Was → NewName (mNum 5) [MESSAGE_RENAMED]\n');
    expect(text).toContain(`    → breaks src/a.ts:3:7 (TS2339 ${shortMessage(LONG)})\n`);
    expect(text).toContain("  new error, no change explains it: src/d.ts:9:1 (TS2322 Type '6' is not assignable to type '5'.)");
    expect(text).toContain('  dangerous · changed SomeType\n');
    expect(text).not.toContain('→ not used');
    expect(text).not.toContain('261 more');
    for (const line of text.split('\n')) expect(line.length, line).toBeLessThanOrEqual(MESSAGE_CHARS + 60);
  });

  it('markdown: the impact section leads, the table of every change follows', () => {
    const markdown = renderReport(report(), { format: 'markdown', command: 'check' });
    const order = ['#### Impact on this repository', '**Breaks `tsconfig.json`**', '- renamed `NewName`: breaks `src/a.ts:3:7`', '**Used by `tsconfig.json`, still compiles**', 'Not used by `tsconfig.json` (2): removed `OldType`, added `Fresh`', '| Severity | Change | Message | Details |'];
    const at = order.map((part) => markdown.indexOf(part));
    expect(at.every((i) => i >= 0), JSON.stringify(at)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(markdown).not.toContain('261 more');
  });

  it('github: an annotation quotes the message as one short line; JSON keeps it whole', () => {
    const github = renderReport(report(), { format: 'github', command: 'check' });
    expect(github).toContain(`file=src/a.ts,line=3,col=7::TS2339: ${shortMessage(LONG)}`);
    expect(github).not.toContain('261 more');
    const json = JSON.parse(renderReport(report(), { format: 'json', command: 'check' })) as { changes: { name: string; impact?: { broken: { message: string }[] } }[] };
    expect(json.changes.find((change) => change.name === 'NewName')!.impact!.broken[0]!.message).toBe(LONG);
  });
});
