/**
 * The cache's records of what an answer made are keyed by schema-sync's build, not its version
 * alone (src/util/version.ts `BUILD`): two builds of a checkout that share a version but parse or
 * validate differently must not take each other's records. The built CLI's key holds the stamp
 * of the sources it was built from; the sources run in place (no dist/ beside them) key by the
 * version alone. What is written to the output folder never holds the stamp.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { BUILD, VERSION } from '../../src/util/version.js';
import { answerFingerprint } from '../../src/run/answer-fingerprint.js';

describe('the build in cache keys', () => {
  it('is the version and the stamp of the sources a build was made from', async () => {
    const built = (await import(join(ROOT, 'dist/util/version.js'))) as { BUILD: string };
    expect(built.BUILD).toBe(`${VERSION} ${readFileSync(join(ROOT, 'dist/build-stamp.txt'), 'utf8').trim()}`);
    expect(BUILD).toBe(VERSION);
  });

  it("is part of an answer's fingerprint", async () => {
    const identity = { bodyHash: 'b', contentType: 'application/json', source: { baseUrl: 'http://127.0.0.1:1', query: {} }, limit: undefined, allowTruncated: false };
    const built = (await import(join(ROOT, 'dist/run/answer-fingerprint.js'))) as { answerFingerprint: typeof answerFingerprint };
    expect(built.answerFingerprint(identity)).not.toBe(answerFingerprint(identity));
  });
});
