import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openIncremental } from '../../src/incremental/index.js';
import { KEEP_OTHER_CODE, pruneCodeCache, pruneRecords, UNUSED_MS } from '../../src/incremental/prune-cache.js';
import { saveRunRecord } from '../../src/incremental/run-record.js';

/** The injected clock's time: no test here reads the wall clock. */
const NOW = Date.UTC(2030, 0, 15);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let dir: string;
let cache: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'schema-sync-prune-'));
  cache = join(dir, 'cache');
  mkdirSync(cache);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `file` (in the cache folder) last modified at `time`. */
function put(name: string, time: number, text = ''): string {
  const file = join(cache, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, time / 1000, time / 1000);
  return file;
}

/** A run record of the output folder `outDir`, written at `time`. */
function record(key: string, outDir: string, time: number): void {
  const file = join(cache, `memo-${key}.json`);
  saveRunRecord(file, {}, outDir);
  utimesSync(file, time / 1000, time / 1000);
}

const names = (folder = cache) => readdirSync(folder).sort();

describe('the records of output folders', () => {
  it('go when their folder is gone or no run wrote them for 30 days; stale temp files go too', () => {
    const here = join(dir, 'out');
    mkdirSync(here);
    record('a1', here, NOW - DAY);
    put('stat-a1.tsv', NOW - DAY);
    record('b2', join(dir, 'gone'), NOW - HOUR);
    put('stat-b2.tsv', NOW - HOUR);
    record('c3', here, NOW - UNUSED_MS - DAY);
    put('stat-c3.tsv', NOW - UNUSED_MS - DAY);
    // A stat cache without its record: judged by its age alone.
    put('stat-d4.tsv', NOW - UNUSED_MS - 1);
    put('stat-e5.tsv', NOW - UNUSED_MS + HOUR);
    put('memo-a1.json.123.tmp', NOW - 2 * DAY);
    put('stat-e5.tsv.124.tmp', NOW - HOUR);
    put('notes.txt', NOW - 100 * DAY);
    pruneRecords(cache, NOW);
    expect(names()).toEqual(['memo-a1.json', 'notes.txt', 'pruned-records', 'stat-a1.tsv', 'stat-e5.tsv', 'stat-e5.tsv.124.tmp']);
  });

  it('are pruned at most once a day: a run within the day after pruning reads nothing', () => {
    pruneRecords(cache, NOW);
    record('b2', join(dir, 'gone'), NOW);
    pruneRecords(cache, NOW + 23 * HOUR);
    expect(names()).toContain('memo-b2.json');
    pruneRecords(cache, NOW + 25 * HOUR);
    expect(names()).not.toContain('memo-b2.json');
  });

  it('a run record names its output folder, and pruning runs when a run remembers what it did', () => {
    const out = join(dir, 'out');
    record('f6', join(dir, 'gone'), NOW);
    openIncremental(out, cache, () => NOW).remember({});
    expect(names()).toEqual(['pruned-records']);
  });

  it('a cache folder that does not exist is left alone', () => {
    const missing = join(dir, 'missing');
    pruneRecords(missing, NOW);
    pruneCodeCache(missing, new Set(), NOW);
    expect(names(dir)).toEqual(['cache']);
  });
});

describe('the V8 code cache', () => {
  it('keeps the entries this run used and the newest few others; emptied folders go', () => {
    const current = 'v8-v20.0.0-x64';
    const used = new Set([put(`${current}/${'f'.repeat(24)}`, NOW - 90 * DAY)]);
    const others = Array.from({ length: KEEP_OTHER_CODE + 3 }, (_, i) => put(`${current}/${String(i).padStart(2, '0').repeat(12)}`, NOW - i * HOUR));
    put(`v8-v18.0.0-x64/${'a'.repeat(24)}`, NOW - 60 * DAY);
    pruneCodeCache(cache, used, NOW);
    const kept = names(join(cache, current));
    expect(kept).toEqual(['f'.repeat(24), ...others.slice(0, KEEP_OTHER_CODE).map((file) => file.slice(file.lastIndexOf('/') + 1))].sort());
    expect(names()).toEqual(['pruned-code', current]);
  });

  it('is pruned at most once a day', () => {
    pruneCodeCache(cache, new Set(), NOW);
    const extra = Array.from({ length: KEEP_OTHER_CODE + 1 }, (_, i) => put(`v8-v20.0.0-x64/${`e${i}`.padEnd(24, '0')}`, NOW - i * HOUR));
    pruneCodeCache(cache, new Set(), NOW + HOUR);
    expect(names(join(cache, 'v8-v20.0.0-x64'))).toHaveLength(extra.length);
    pruneCodeCache(cache, new Set(), NOW + 2 * DAY);
    expect(names(join(cache, 'v8-v20.0.0-x64'))).toHaveLength(KEEP_OTHER_CODE);
  });
});
