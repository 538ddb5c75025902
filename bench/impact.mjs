#!/usr/bin/env node
// The impact row: a consumer project of ~200 TypeScript files using the ~270 types of the example
// listing (with record types), and a 20-type change (5 types removed, 5 with an action removed,
// 5 with a record field removed, 5 with another schema hash; an action is added where there was
// only one). Times, paired and interleaved,
// one plain `tsc --noEmit -p` of the project against the old output, and the impact check of
// the same project (`schema-sync diff old.lock.json new.lock.json --impact tsconfig.json`, both
// as whole processes); prints the medians and the median ratio. `npm run bench` runs it too.
//   npm run build && node bench/impact.mjs [--runs 7] [--files 200]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};

const BIN = join(root, 'dist/cli/bin.js');
const TSC = join(root, 'node_modules/typescript/bin/tsc');

const listing = JSON.parse(readFileSync(join(root, 'examples/descriptors.json'), 'utf8')).filter((e) => e.header.msgType !== 'QueryResult');
const names = listing.map((e) => e.message.name);

/** Six fields a type: a key, numbers, a text and an enum. */
const schemaOf = (i, { withoutField = false } = {}) =>
  [
    { pos: 1, name: 'ticker', fNum: 1, isPkey: 'Yes', fType: 'TickerKey' },
    { pos: 2, name: 'price', fNum: 2, isPkey: 'No', fType: 'Double' },
    { pos: 3, name: 'size', fNum: 3, isPkey: 'No', fType: 'Int' },
    { pos: 4, name: 'venue', fNum: 4, isPkey: 'No', fType: 'String' },
    { pos: 5, name: 'side', fNum: 5, isPkey: 'No', fType: 'Enum', eSet: 'Buy,Sell' },
    { pos: 6, name: `extra${i % 3}`, fNum: 6, isPkey: 'No', fType: 'Long' },
  ].filter((f) => !(withoutField && f.name === 'price'));

/** The old listing, and the new one with 20 types changed. */
const before = { listing, schemas: Object.fromEntries(names.map((n, i) => [n, schemaOf(i)])) };
const changedIndexes = Array.from({ length: 20 }, (_, k) => Math.floor((k * names.length) / 20));
const removed = new Set(changedIndexes.slice(0, 5));
const afterListing = listing
  .map((element, i) => {
    const k = changedIndexes.indexOf(i);
    if (k < 0 || removed.has(i)) return element;
    const message = { ...element.message };
    if (k < 10) message.actions = message.actions === 'S' ? 'SI' : 'S';
    else if (k >= 15) message.schemaHash = `F${message.schemaHash.slice(1)}`;
    return { ...element, message };
  })
  .filter((_, i) => !removed.has(i));
const after = {
  listing: afterListing,
  schemas: Object.fromEntries(names.map((n, i) => [n, schemaOf(i, { withoutField: changedIndexes.indexOf(i) >= 10 && changedIndexes.indexOf(i) < 15 })])),
};

/** A consumer file: it imports three types and uses their constants and records. */
function consumerFile(i) {
  const picked = [i % names.length, (i * 7 + 3) % names.length, (i * 13 + 5) % names.length];
  const ids = picked.map((p) => names[p]);
  const lines = [`import { ${[...new Set(ids)].join(', ')}, ${[...new Set(ids)].map((id) => `type ${id}Record`).join(', ')} } from '../gen/index.js';`, ''];
  for (const [k, id] of ids.entries()) {
    lines.push(`export const number${k} = ${id}.mNum;`);
    lines.push(`export const canSelect${k} = ${id}.actions.includes('select');`);
    lines.push(`export function total${k}(r: ${id}Record): number {`, '  return (r.price ?? 0) * (r.size ?? 0);', '}');
    lines.push(`export function isBuy${k}(r: ${id}Record): boolean {`, "  return r.side === 'Buy';", '}');
  }
  return `${lines.join('\n')}\n`;
}

function run(command, args, cwd, env = {}) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [command, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', fail);
    child.on('exit', (code) => done({ code, output, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/**
 * The impact row: `runs` paired runs of tsc and of the impact check on a consumer of `fileCount`
 * files. Gives the medians (s), the median of the paired ratios and what the check found.
 */
export async function benchImpact({ runs = 7, fileCount = 200 } = {}) {
const work = mkdtempSync(join(tmpdir(), 'schema-sync-impact-bench-'));
const { startReferenceServer } = await import(join(root, 'dist/server/index.js'));
const server = await startReferenceServer({ listing: before.listing, schemas: before.schemas });
try {
  const app = join(work, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true }, include: ['src'] }));
  for (let i = 0; i < fileCount; i++) writeFileSync(join(app, 'src', `use${String(i).padStart(3, '0')}.ts`), consumerFile(i));
  // The old output in the project (gen/), and the new one in a folder of its own.
  const pull = (out) => run(BIN, ['pull', '--base-url', server.url, '--out', out, '--lockfile', `${out}.lock.json`, '--fields'], app);
  const first = await pull('gen');
  if (first.code !== 0) throw new Error(first.output);
  server.setListing(after.listing);
  server.setOptions({ schemas: after.schemas });
  const second = await pull(join(work, 'new-gen'));
  if (second.code !== 0) throw new Error(second.output);
  const impactArgs = ['diff', 'gen.lock.json', join(work, 'new-gen.lock.json'), '--out', 'gen', '--impact', 'tsconfig.json', '--format', 'json'];
  const tscTimes = [];
  const impactTimes = [];
  let summary = '';
  for (let i = 0; i <= runs; i++) {
    const order = i % 2 === 0 ? ['tsc', 'impact'] : ['impact', 'tsc'];
    for (const which of order) {
      const r = which === 'tsc' ? await run(TSC, ['--noEmit', '-p', 'tsconfig.json'], app) : await run(BIN, impactArgs, app, { SCHEMA_SYNC_CACHE_DIR: 'off' });
      if (which === 'tsc' && r.code !== 0) throw new Error(`the consumer does not compile against the old output:\n${r.output}`);
      if (which === 'impact') {
        // diff exits 1: the lockfiles differ.
        if (r.code !== 1) throw new Error(r.output);
        const { impact } = JSON.parse(r.output);
        summary = `${impact.broken} broken, ${impact.referenced} used and still compiling, ${impact.unattributed.length} unattributed`;
      }
      if (i > 0) (which === 'tsc' ? tscTimes : impactTimes).push(r.seconds);
    }
  }
  const ratios = tscTimes.map((t, k) => impactTimes[k] / t);
  return { fileCount, types: names.length, runs, summary, tscMedian: median(tscTimes), impactMedian: median(impactTimes), ratio: median(ratios) };
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}
}

/** The row as printed. */
export function impactLines(row) {
  return [
    `Impact: a 20-type change on a ${row.fileCount}-file consumer of ${row.types} types (${row.summary}), ${row.runs} paired runs`,
    '',
    '| run | median s |',
    '|---|---:|',
    `| tsc --noEmit -p (the project alone) | ${row.tscMedian.toFixed(2)} |`,
    `| diff --impact (two type-checks and the attribution) | ${row.impactMedian.toFixed(2)} |`,
    '',
    `impact / tsc: ${row.ratio.toFixed(2)} × (median of the paired ratios; target ≤ 2.5 ×)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(impactLines(await benchImpact({ runs: Number(arg('runs', '7')), fileCount: Number(arg('files', '200')) })).join('\n'));
}
