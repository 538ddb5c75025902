// The records row (issue 38): parse and validate a ~20 MB rest/json answer of OptionNbboQuote
// records (examples/descriptors.schemas.json's fields; two 19-digit timestamps a record) with the
// generated parseRecords, under int64 number (roundInt64: the timestamps are beyond 2^53) and
// bigint, paired in one process and interleaved with its peers on the same text:
//   floor    JSON.parse alone
//   zod      JSON.parse + zod 4 schemas of the same records (bench/records-zod.mjs)
//   lossless lossless-json (big integers as bigint) + the same zod schemas, Long as bigint
// Each round runs every variant once, in an order that rotates; medians of the rounds.
// Usage (after npm run build): node bench/records.mjs [--runs 7] [--mb 20]
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isSafeNumber, parse as parseLossless } from 'lossless-json';
import { answerSchemas } from './records-zod.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A seeded generator (mulberry32): the same answer on every run. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXCHANGES = 'None,AMEX,BOX,CBOE,ISE,PHLX,ARCA,NSDQ,BATS,C2,MIAX,GEM,EDGO,MPRL,EMLD,MEMX'.split(',');
const TICKERS = ['SPX', 'SPY', 'AAPL', 'MSFT', 'NVDA', 'QQQ', 'TSLA', 'AMZN', 'META', 'IWM'];

/** A records answer of about `mb` MB of OptionNbboQuote records, as the service writes one, and its record count. */
export function recordsAnswer(mb) {
  const rnd = random(38);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const price = () => Math.round(rnd() * 100000) / 100;
  const elements = [];
  let bytes = 0;
  const base = 1690379504651660288n;
  while (bytes < mb * 1e6) {
    const tk = pick(TICKERS);
    const message = {
      pkey: { okey: { at: 'EQT', ts: 'NMS', tk, dt: `2024-0${1 + Math.floor(rnd() * 9)}-15`, xx: Math.round(rnd() * 5000), cp: rnd() < 0.5 ? 'Call' : 'Put' } },
      ticker: { at: 'EQT', ts: 'NMS', tk },
      bidPrice: price(),
      bidSize: Math.floor(rnd() * 500),
      bidExch: pick(EXCHANGES),
      bidMask: Math.floor(rnd() * 16),
      askPrice: price(),
      askSize: Math.floor(rnd() * 500),
      askExch: pick(EXCHANGES),
      uPrc: price(),
      srcTimestamp: '@1',
      netTimestamp: '@2',
      timestamp: '2023-07-26 13:51:44.651660',
    };
    const offset = BigInt(Math.floor(rnd() * 1e12));
    const text = JSON.stringify({ header: { mTyp: 'OptionNbboQuote' }, message }).replace('"@1"', String(base + offset)).replace('"@2"', String(base + offset + 1234n));
    elements.push(text);
    bytes += text.length + 1;
  }
  elements.push(JSON.stringify({ header: { mTyp: 'QueryResult' }, message: { numMessagesSent: elements.length, queryElapsed: 0.5, result: 'Ok' } }));
  return { text: `[${elements.join(',')}]`, records: elements.length - 1 };
}

/** The OptionNbboQuote descriptor with the example's field descriptors, as the lockfile holds it. */
function optionNbboQuote() {
  const described = JSON.parse(readFileSync(join(root, 'examples/descriptors.schemas.json'), 'utf8')).OptionNbboQuote;
  const fields = described.map((f) => ({ name: f.name, pos: f.pos, fNum: f.fNum, fType: f.fType, isPkey: f.isPkey === 'Yes', ...(f.eSet === undefined ? {} : { eSet: f.eSet.split(',') }), extra: {} }));
  return { name: 'OptionNbboQuote', mNum: 2785, schemaHash: '0000000000000000', extra: {}, fields };
}

/** The generated output (js+dts) under an int64 setting, imported. */
async function generated(dir, int64) {
  const { emitFiles } = await import(join(root, 'dist/emit/index.js'));
  const files = await emitFiles({ messages: [optionNbboQuote()], source: { query: {} }, fields: true, int64, target: 'js+dts' });
  const out = join(dir, int64);
  for (const file of files) {
    mkdirSync(dirname(join(out, file.path)), { recursive: true });
    writeFileSync(join(out, file.path), file.text);
  }
  return import(pathToFileURL(join(out, 'index.js')).href);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs the records row; returns its figures. */
export async function benchRecords({ runs = 7, mb = 20 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'schema-sync-records-bench-'));
  try {
    const { text, records } = recordsAnswer(mb);
    const number = await generated(dir, 'number');
    const bigint = await generated(dir, 'bigint');
    const zodNumber = answerSchemas('number');
    const zodBigint = answerSchemas('bigint');
    const check = (schemas, elements) => {
      const last = elements.length - 1;
      for (let i = 0; i < last; i++) schemas.record.parse(elements[i]);
      schemas.result.parse(elements[last]);
      return elements;
    };
    const losslessNumber = (value) => (isSafeNumber(value) ? Number(value) : BigInt(value));
    const variants = {
      floor: () => JSON.parse(text),
      number: () => number.parseRecords(text, { roundInt64: true }),
      zod: () => check(zodNumber, JSON.parse(text)),
      bigint: () => bigint.parseRecords(text),
      lossless: () => check(zodBigint, parseLossless(text, undefined, losslessNumber)),
    };
    // Each gives what it should before it is timed.
    const sample = bigint.parseRecords(text).records[0].message;
    if (typeof sample.srcTimestamp !== 'bigint' || sample.srcTimestamp < 1690379504651660288n) throw new Error('bigint mode lost the timestamp');
    if (number.parseRecords(text, { roundInt64: true }).records.length !== records) throw new Error('number mode lost records');
    const names = Object.keys(variants);
    const times = Object.fromEntries(names.map((name) => [name, []]));
    for (let round = -1; round < runs; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + Math.max(round, 0)) % names.length];
        const start = performance.now();
        variants[name]();
        const elapsed = performance.now() - start;
        if (round >= 0) times[name].push(elapsed);
      }
    }
    const ms = Object.fromEntries(names.map((name) => [name, median(times[name])]));
    return {
      mb: text.length / 1e6,
      records,
      runs,
      ms,
      recordsPerSecond: Object.fromEntries(names.map((name) => [name, records / (ms[name] / 1000)])),
      ratios: { numberToFloor: ms.number / ms.floor, numberToZod: ms.number / ms.zod, bigintToNumber: ms.bigint / ms.number, bigintToLossless: ms.bigint / ms.lossless, zodToFloor: ms.zod / ms.floor },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The row as markdown lines. */
export function recordsLines(r) {
  const f = (n) => n.toFixed(2);
  const k = (n) => `${Math.round(n / 1000)}k`;
  return [
    `Records (issue 38): parse and validate a ${r.mb.toFixed(1)} MB rest/json answer of ${r.records} OptionNbboQuote records, median of ${r.runs} interleaved rounds`,
    '',
    '| variant | median ms | records/s |',
    '|---|---:|---:|',
    ...Object.keys(r.ms).map((name) => `| ${name} | ${Math.round(r.ms[name])} | ${k(r.recordsPerSecond[name])} |`),
    '',
    `number ÷ JSON.parse ${f(r.ratios.numberToFloor)} (target ≤ 2), number ÷ zod ${f(r.ratios.numberToZod)} (< 1), bigint ÷ number ${f(r.ratios.bigintToNumber)} (target ≤ 1.5), bigint ÷ lossless ${f(r.ratios.bigintToLossless)} (< 1), zod ÷ JSON.parse ${f(r.ratios.zodToFloor)}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  console.log(recordsLines(await benchRecords({ runs: Number(arg('runs', '7')), mb: Number(arg('mb', '20')) })).join('\n'));
}
