// Part 2, check beside pull: a `check --format json` started at a random moment beside a `pull`
// (one cache folder for both); its report must be byte for byte what `check` reports of the
// folder at rest before the pull or after it, or an honest refusal ("kept changing").
import { setTimeout as sleep } from 'node:timers/promises';

/** A check's JSON report in a few words, or its first error line. */
function describeReport(check) {
  try {
    const report = JSON.parse(check.stdout);
    return `${report.changes.length} changes, ${report.staleFiles.length} stale files`;
  } catch {
    return check.stderr.split('\n')[0];
  }
}

/** Runs `count` pairs and prints how many reports were wrong. */
export async function pairs(scene, count, random, tally) {
  const { A, B, dir, env, pullArgs, runMs, server, listings } = scene;
  const checkArgs = (input) => ['check', '--input', `${input}.json`, '--out', 'out', '--format', 'json'];
  // What check reports of each state at rest, against each listing.
  const atRest = {};
  for (const state of [A, B]) {
    await tally.run('pairs: pull at rest', ['pull', '--input', `${state.name}.json`, '--out', 'out', '--quiet'], { cwd: dir, env });
    for (const input of ['A', 'B']) {
      const check = await tally.run('pairs: check at rest', checkArgs(input), { cwd: dir, env }, [0, 1]);
      atRest[`${state.name}|${input}`] = `${check.code}\n${check.stdout}`;
    }
  }
  let current = B;
  let wrong = 0;
  let refused = 0;
  const examples = [];
  for (let pair = 0; pair < count; pair++) {
    const target = current === A ? B : A;
    server.setListing(listings[target.name]);
    const pulling = tally.start('pairs: pull', pullArgs, { cwd: dir, env });
    await sleep(random() * runMs);
    const check = await tally.start('pairs: check beside pull', checkArgs(target.name), { cwd: dir, env }).done;
    const pulled = await pulling.done;
    if (pulled.code !== 0) throw new Error(`pull failed beside check: ${pulled.stderr}`);
    const report = `${check.code}\n${check.stdout}`;
    if (check.code === 2 && check.stderr.includes('kept changing while check read it')) refused++;
    else if (report !== atRest[`${current.name}|${target.name}`] && report !== atRest[`${target.name}|${target.name}`]) {
      wrong++;
      if (examples.length < 3) examples.push(`exit ${check.code}: ${describeReport(check)}`);
    }
    current = target;
  }
  console.log(`check beside pull: ${count} pairs, ${wrong} wrong reports, ${refused} refused as "kept changing"${examples.length ? `; e.g. ${examples.join(' | ')}` : ''}`);
}
