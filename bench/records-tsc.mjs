#!/usr/bin/env node
// The type-check row of issue 38: what every consumer's build pays for the generated folder with
// fields on, the records runtime and checks included, against a base build's folder (without
// them): the example listing's 264 types with synthetic field descriptors shaped like the real
// ones (bench/synthetic-fields.mjs; no real 264-type FieldDesc set is public), each folder pulled
// by its own build's CLI (target ts) and type-checked alone by `tsc --noEmit --extendedDiagnostics`
// (strict), interleaved, `--runs` times each. The head's folder is checked twice: as a project's
// compiler sees it (generated TypeScript says `@ts-nocheck`: its types are read, its code not
// checked again) and checked in full (the directive made a plain comment, as the tests check it),
// which is what the records add to a check of the generated code itself. Prints lines, types,
// check and total time (medians) and the medians of the per-round check-time ratios to the base.
//   npm run build && node bench/records-tsc.mjs --base ../base [--runs 5]
// (a base checkout with dist/ built: git worktree add --detach ../base <rev>, then npm ci there).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { syntheticFields } from './synthetic-fields.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(root, 'node_modules/typescript/bin/tsc');

function run(command, args, cwd) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, SCHEMA_SYNC_CACHE_DIR: 'off', NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, output }));
  });
}

/** The figures of one `--extendedDiagnostics` report. */
function diagnostics(output) {
  const figure = (label) => {
    const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(output);
    // tsc leaves the check time out when it checked nothing (every file said @ts-nocheck).
    if (match === null && label === 'Check time' && /^Total time:/m.test(output)) return 0;
    if (match === null) throw new Error(`no "${label}" in tsc's report:\n${output.slice(0, 2000)}`);
    return Number(match[1]);
  };
  return { lines: figure('Lines of TypeScript'), types: figure('Types'), check: figure('Check time'), total: figure('Total time') };
}

/** A consumer's file using what both builds' folders export. */
const CONSUMER = `import { isElementOf, messageNames, messages, messagesByNumber, type MessageName, type RecordByName, type RecordElement } from './schema/index.js';
export const numbers: readonly number[] = messageNames.map((name) => messages[name].mNum);
export const byNumber = messagesByNumber[1840];
export type Records = { [N in MessageName]: RecordByName<N> };
export function fieldsOf<N extends MessageName>(name: N, record: RecordByName<N>): readonly string[] {
  return Object.keys(record).concat(messages[name].name);
}
export function quotes(elements: readonly RecordElement[]): unknown[] {
  return elements.filter((element) => isElementOf(element, 'OptionNbboQuote')).map((element) => element.message);
}
`;

/** A consumer's file using the records API (the head only). */
const API_CONSUMER = `import { fetchRecords, isElementOf, parseRecords, recordSchemas, recordsQuery, type MessageName } from './schema/index.js';
export const answer = parseRecords('[]', { onDrift: (finding) => void finding });
export const quotes = answer.records.filter((element) => isElementOf(element, 'OptionNbboQuote')).map((element) => element.message.pkey);
export const query = recordsQuery('OptionNbboQuote', { limit: 10 });
export async function latest(name: MessageName): Promise<number> {
  const fetched = await fetchRecords('http://127.0.0.1:1', name, { limit: 1 });
  return fetched.records.length + Object.keys(recordSchemas[name]).length;
}
export const validated = recordSchemas.OptionNbboQuote['~standard'].validate({});
`;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the row against the build in `base` (a checkout with dist/). */
export async function benchRecordsTsc({ base, runs = 5 }) {
  const listing = JSON.parse(readFileSync(join(root, 'examples/descriptors.json'), 'utf8'));
  const names = listing.map((element) => element.message.name);
  const schemas = syntheticFields(names);
  const { startReferenceServer } = await import(join(root, 'dist/server/index.js'));
  const server = await startReferenceServer({ listing, schemas });
  const dir = mkdtempSync(join(tmpdir(), 'schema-sync-records-tsc-'));
  try {
    const builds = { base: resolve(base), head: root };
    for (const [label, build] of Object.entries(builds)) {
      const folder = join(dir, label);
      mkdirSync(folder);
      const pulled = await run(process.execPath, [join(build, 'dist/cli/bin.js'), 'pull', '--base-url', server.url, '--fields', '--out', 'schema', '--lockfile', 'schema.lock.json', '--quiet'], folder);
      if (pulled.code !== 0) throw new Error(`${label}: pull failed: ${pulled.output}`);
      const compilerOptions = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], noEmit: true, skipLibCheck: true };
      writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['schema/**/*.ts'] }));
    }
    // A consumer's own file beside each folder, using what both builds export (the registries,
    // the record types of every type, the elements narrowed): what a project that uses the
    // folder checks besides it. And, beside the head only, one that uses the records API too.
    for (const label of Object.keys(builds)) {
      writeFileSync(join(dir, label, 'use.ts'), CONSUMER);
      writeFileSync(join(dir, label, 'tsconfig.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(dir, label, 'tsconfig.json'), 'utf8')), include: ['schema/**/*.ts', 'use.ts'] }));
    }
    cpSync(join(dir, 'head'), join(dir, 'api'), { recursive: true });
    writeFileSync(join(dir, 'api', 'use-api.ts'), API_CONSUMER);
    writeFileSync(join(dir, 'api', 'tsconfig.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'api', 'tsconfig.json'), 'utf8')), include: ['schema/**/*.ts', 'use.ts', 'use-api.ts'] }));
    // The head's folder checked in full, as the tests check it (test/helpers/tsc.ts): each generated
    // module's head (NO_CHECK_LINES) made a plain comment. The records runtime keeps its own
    // `@ts-nocheck`, as in the rows of earlier sessions: it is checked where it is written.
    const { NO_CHECK_LINES } = await import(join(root, 'dist/emit/writers.js'));
    const head = NO_CHECK_LINES.join('\n');
    cpSync(join(dir, 'head'), join(dir, 'full'), { recursive: true });
    for (const entry of readdirSync(join(dir, 'full', 'schema'), { recursive: true })) {
      const file = join(dir, 'full', 'schema', entry);
      if (!/\.m?ts$/.test(file)) continue;
      const text = readFileSync(file, 'utf8');
      if (text.includes(head)) writeFileSync(file, text.replace(head, `${NO_CHECK_LINES[0]}\n// (checked in full)`));
    }
    const labels = ['base', 'head', 'api', 'full'];
    const figures = { base: [], head: [], api: [], full: [] };
    for (let round = -1; round < runs; round++) {
      for (const label of round % 2 === 0 ? labels : [...labels].reverse()) {
        const checked = await run(process.execPath, [TSC, '-p', join(dir, label, 'tsconfig.json'), '--extendedDiagnostics'], dir);
        if (checked.code !== 0) throw new Error(`${label}: the folder does not type-check:\n${checked.output.slice(0, 3000)}`);
        if (round >= 0) figures[label].push(diagnostics(checked.output));
      }
    }
    const summary = (label) => ({ lines: figures[label][0].lines, types: figures[label][0].types, check: median(figures[label].map((f) => f.check)), total: median(figures[label].map((f) => f.total)) });
    const ratio = (label, figure) => median(figures[label].map((f, i) => f[figure] / figures.base[i][figure]));
    return {
      runs,
      base: summary('base'),
      head: summary('head'),
      full: summary('full'),
      api: summary('api'),
      checkRatio: ratio('head', 'check'),
      totalRatio: ratio('head', 'total'),
      apiCheckRatio: ratio('api', 'check'),
      apiTotalRatio: ratio('api', 'total'),
      fullCheckRatio: ratio('full', 'check'),
      fullTotalRatio: ratio('full', 'total'),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row as markdown lines. */
export function recordsTscLines(r) {
  const row = (label, s) => `| ${label} | ${s.lines} | ${s.types} | ${s.check.toFixed(2)} | ${s.total.toFixed(2)} |`;
  return [
    `Type-check of the generated folder with fields (issue 38): 264 types, synthetic field descriptors, tsc --noEmit --extendedDiagnostics, median of ${r.runs} interleaved runs`,
    '',
    '| build | lines | types | check s | total s |',
    '|---|---:|---:|---:|---:|',
    row('base (no runtime)', r.base),
    row('head (runtime, checks, parser), as a project checks it', r.head),
    row('head, and a consumer of the records API too', r.api),
    row("head checked in full (the generated modules' `@ts-nocheck` taken out)", r.full),
    '',
    `check time head ÷ base ${r.checkRatio.toFixed(2)} (target ≤ 1.25), total ${r.totalRatio.toFixed(2)}; with the records API used: check ${r.apiCheckRatio.toFixed(2)}, total ${r.apiTotalRatio.toFixed(2)}; checked in full: check ${r.fullCheckRatio.toFixed(2)}, total ${r.fullTotalRatio.toFixed(2)}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const base = arg('base', undefined);
  if (base === undefined) throw new Error('--base <checkout with dist/> is required');
  console.log(recordsTscLines(await benchRecordsTsc({ base, runs: Number(arg('runs', '5')) })).join('\n'));
}
