// Part 8, shared lockfile (issue 42, item 9): `pull --out gen` and `pull --out gen2` with one
// lockfile, started at once against two reference servers that list different types (both folders
// generated from the lockfile before). After each pair the lockfile must hold one of the two
// listings whole, the folder of the run that wrote it last must be what it generates (`check`
// exit 0), and that run must have said that the lockfile was no longer the one its folder was
// generated from: otherwise the first run's update was lost without a word. Nothing may be left
// beside the lockfile or in the folders (locks, transaction folders).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startReferenceServer } from '../../dist/server/index.js';
import { syntheticElement } from '../../test/helpers/folder-states.mjs';

const TYPES = 200;

/** Runs `count` pairs (at least 8) and prints what became of the updates. */
export async function sharedLockfile(root, options, tally) {
  const count = Math.max(8, Math.round(options.pairs / 2));
  await mkdir(root, { recursive: true });
  // Listing v: every type's schema in its version v. Both folders start from version 0; pair p
  // pulls versions 2p+1 and 2p+2, so each pull of a pair changes the lockfile.
  const listing = (version) => Array.from({ length: TYPES }, (_, i) => syntheticElement(i, version));
  const servers = await Promise.all([1, 2].map(() => startReferenceServer({ listing: listing(0) })));
  const env = { SCHEMA_SYNC_CACHE_DIR: 'off' };
  const hashes = (elements) => JSON.stringify(elements.map((e) => [e.message.name, e.message.schemaHash]));
  const locked = async () => JSON.stringify(Object.entries(JSON.parse(await readFile(join(root, 'schema-sync.lock.json'), 'utf8')).messages).map(([name, m]) => [name, m.schemaHash]));
  try {
    await tally.run('shared: first pull', ['pull', '--base-url', servers[0].url, '--out', 'gen', '--quiet'], { cwd: root, env });
    await tally.run('shared: generate gen2', ['generate', '--out', 'gen2', '--quiet'], { cwd: root, env });
    let lost = 0;
    let warned = 0;
    let leftBehind = 0;
    const examples = [];
    for (let pair = 0; pair < count; pair++) {
      const [forGen, forGen2] = [2 * pair + 1, 2 * pair + 2];
      servers[0].setListing(listing(forGen));
      servers[1].setListing(listing(forGen2));
      for (const v of [forGen, forGen2]) await writeFile(join(root, `listing${v}.json`), JSON.stringify(listing(v)));
      const runs = [
        tally.start('shared: pull gen', ['pull', '--base-url', servers[0].url, '--out', 'gen'], { cwd: root, env }),
        tally.start('shared: pull gen2', ['pull', '--base-url', servers[1].url, '--out', 'gen2'], { cwd: root, env }),
      ];
      const [gen, gen2] = await Promise.all(runs.map((run) => run.done));
      if (gen.code !== 0 || gen2.code !== 0) throw new Error(`a pull of a pair failed: ${gen.stderr}${gen2.stderr}`);
      const now = await locked();
      const holds = now === hashes(listing(forGen)) ? forGen : now === hashes(listing(forGen2)) ? forGen2 : -1;
      const problems = [];
      if (holds !== forGen && holds !== forGen2) problems.push('the lockfile holds neither listing whole');
      const [lastFolder, lastRun] = holds === forGen ? ['gen', gen] : ['gen2', gen2];
      const check = await tally.start('shared: check the last writer', ['check', '--input', `listing${holds}.json`, '--out', lastFolder, '--quiet'], { cwd: root, env }).done;
      if (check.code !== 0) problems.push(`${lastFolder}, whose run wrote the lockfile last, is not what it generates (check exit ${check.code})`);
      if (lastRun.stderr.includes('is not the lockfile')) warned++;
      else problems.push('the last writer did not say the lockfile was rewritten under its folder: the first run\'s update was lost without a word');
      const left = [...(await readdir(root)).filter((name) => name.includes('.schema-sync-')), ...(await readdir(join(root, 'gen'))), ...(await readdir(join(root, 'gen2')))].filter((name) => /schema-sync-(lock|txn|run)/.test(name));
      if (left.length > 0) {
        leftBehind++;
        problems.push(`left behind: ${left.join(', ')}`);
      }
      if (problems.length > 0) {
        lost++;
        if (examples.length < 3) examples.push(problems.join('; '));
      }
      // The other folder is behind the lockfile now: bring it back, as the warning says, for the next pair.
      await tally.run('shared: generate the other folder', ['generate', '--out', lastFolder === 'gen' ? 'gen2' : 'gen', '--quiet'], { cwd: root, env });
    }
    console.log(`shared lockfile: ${count} pairs of pulls into two folders at once; updates lost without a word: ${lost}; last writers that said the lockfile moved under their folder: ${warned}; pairs that left a lock or transaction behind: ${leftBehind}${examples.length ? `; e.g. ${examples.join(' | ')}` : ''}`);
  } finally {
    await Promise.all(servers.map((server) => server.close()));
  }
}
