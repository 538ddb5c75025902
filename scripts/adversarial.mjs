#!/usr/bin/env node
// node scripts/adversarial.mjs [--kills 40] [--pairs 20] [--types 10000] [--seed 20250613]
//                              [--no-rss] [--parts kills,pairs,rss,planted,secrets,budgets,hostile,shared] [--verbose]
//
// The adversarial pass of issues 18 and 30, as figures (not part of npm test; needs `npm run
// build`; see bench/README.md). Against the built CLI and the bundled reference server, one part
// per file under scripts/adversarial/:
//  1. kills.mjs: `pull`s of `--types` types killed by SIGKILL, SIGINT, SIGTERM or two SIGINTs
//     after the commit point; mixes on disk right after the exit, as the next command sees the
//     folder, and after it, by signal;
//  2. pairs.mjs: `check` beside `pull`: wrong reports;
//  3. rss.mjs: peak RSS of a `pull` against a body that never ends and a gzip bomb;
//  4. planted.mjs: output folders a hostile repository carries (planted transaction folders,
//     journals, run locks, manifests): files touched outside the output folder, hand-made files
//     inside it deleted or moved, error codes;
//  5. secrets.mjs: a server that echoes the key and secret in every common encoding, in a
//     listing, headers and error bodies: leaks into any output or file; keys that are words;
//  6. budgets.mjs: hanging and trickling servers, proxies that close CONNECT, held and hostile
//     run locks: how long a command runs past its --timeout or --lock-wait;
//  7. hostile-inputs.mjs (issue 42): code-cache and cache-folder attacks of another user, links
//     at templates and the cache folder, git arguments that begin with `-`, secrets in encodings
//     that escape every character or inside longer base64, devices, FIFOs and sparse giants where
//     a file is read;
//  8. shared-lockfile.mjs (issue 42, item 9): two pulls into two output folders that share one
//     lockfile, at once: updates lost without a word, locks left behind.
// Then the INTERNAL errors ("a bug in schema-sync") of every run of the pass. Prints one line per
// figure; random moments come from a PRNG seeded with --seed, so a run can be replayed.
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { roomyTempDir, seededRandom } from '../test/helpers/folder-states.mjs';
import { budgets } from './adversarial/budgets.mjs';
import { createTally, readOptions } from './adversarial/common.mjs';
import { kills } from './adversarial/kills.mjs';
import { movingFolder } from './adversarial/moving-folder.mjs';
import { pairs } from './adversarial/pairs.mjs';
import { planted } from './adversarial/planted.mjs';
import { rss } from './adversarial/rss.mjs';
import { secrets } from './adversarial/secrets.mjs';
import { hostileInputs } from './adversarial/hostile-inputs.mjs';
import { sharedLockfile } from './adversarial/shared-lockfile.mjs';

const options = readOptions(process.argv);
const random = seededRandom(options.seed);
const tally = createTally();
const dir = await roomyTempDir('schema-sync-adversarial-');
// The runs as nobody must be able to enter it (a mkdtemp folder is 0700).
chmodSync(dir, 0o755);
const started = Date.now();
try {
  const has = (part) => options.parts.includes(part);
  console.log(`adversarial pass: seed ${options.seed}; parts ${options.parts.join(', ')}`);
  if (has('kills') || has('pairs') || has('rss')) {
    const scene = await movingFolder(join(dir, 'moving'), options.types, tally);
    try {
      console.log(`${options.types} types; pull A→B ${scene.runMs} ms, of which ${scene.writeMs} ms from its transaction folder on`);
      if (has('kills')) await kills(scene, options.kills, random, tally);
      if (has('pairs')) await pairs(scene, options.pairs, random, tally);
      if (has('rss')) await rss(scene, tally);
    } finally {
      await scene.close();
    }
  }
  if (has('planted')) await planted(join(dir, 'planted'), options, tally);
  if (has('secrets')) await secrets(join(dir, 'secrets'), options, tally);
  if (has('budgets')) await budgets(join(dir, 'budgets'), options, tally);
  if (has('hostile')) await hostileInputs(join(dir, 'hostile'), options, tally);
  if (has('shared')) await sharedLockfile(join(dir, 'shared'), options, tally);
  console.log(`INTERNAL errors: ${tally.internal.length} in ${tally.runs} runs of the pass${tally.internal.length ? ':' : ''}`);
  for (const line of tally.internal) console.log(`  ${line}`);
  console.log(`(the pass took ${Math.round((Date.now() - started) / 1000)} s)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
