import { describe, expect, it } from 'vitest';
import { parseLockfile } from '../../src/lock/parse.js';
import { LOCKFILE_VERSION } from '../../src/model/lockfile.js';

/** A lockfile entry whose unknown field `deep` nests `depth` arrays. */
function lockfileWithDeepField(depth: number): string {
  const entry = { mNum: 1, schemaHash: 'H', actions: ['select'], hasTKey: false, hasEKey: false, hasOKey: false, hasCF: false, mToken: 't', staticFilterFields: [] };
  const head = JSON.stringify({ lockfileVersion: LOCKFILE_VERSION, source: { query: {} }, messages: { Deep: entry } }).slice(0, -3);
  return `${head},"deep":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
}

describe('a lockfile value nested too deep', () => {
  it.each([2_500, 100_000])('%i levels: a LOCK error naming the entry and field, before anything recursive reads it', (depth) => {
    expect(() => parseLockfile(lockfileWithDeepField(depth), 'schema-sync.lock.json')).toThrow(
      'schema-sync.lock.json has invalid entries:\n  messages["Deep"].deep.0.0.0.…: nested more than 64 levels deep',
    );
  });

  it('63 levels inside the entry are read', () => {
    expect(parseLockfile(lockfileWithDeepField(63), 'l.json').messages[0]!.extra['deep']).toBeDefined();
  });
});
