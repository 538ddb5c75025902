// Part 5, secrets: a server that echoes the API key and secret in every encoding of
// secret-echoes.mjs, at every place it lists; for each, a `pull --verbose` and a `check --format
// github --verbose` under GitHub Actions (a step summary file), each case in a fresh copy of a
// pulled project with its own cache and home folders. Every output (stdout, stderr, the lockfile,
// generated files, the step summary, the cache folder, the home folder) is searched for every
// encoding of each secret: a leak is any of them found. Then keys that are ordinary words: the
// CLI's own wording must never show `***` (masking it would reveal the key).
import { cp, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { answerRequest, errorAnswer, sendAnswer } from '../../dist/server/answer.js';
import { startReferenceServer } from '../../dist/server/index.js';
import { syntheticListing } from '../../test/helpers/folder-states.mjs';
import { errorCode, inParallel } from './common.mjs';
import { CREDENTIALS, ENCODINGS, LOCATIONS, WORD_CREDENTIALS } from './secret-echoes.mjs';

const BASE = syntheticListing(5);

/** Runs every credential × encoding × place, then the word keys; prints the leaks. */
export async function secrets(root, options, tally) {
  await mkdir(root, { recursive: true });
  // Each case answers under its own path prefix (/c<n>), so that cases can run side by side.
  const cases = [];
  const server = await startReferenceServer({
    listing: [],
    deliver: ({ request, response }) => {
      const match = /^\/c(\d+)(\/.*)?$/.exec(request.path);
      const served = match && cases[Number(match[1])];
      if (!served) return sendAnswer(response, errorAnswer(404, 'no such case'));
      const answer = served.answer ?? answerRequest({ ...request, path: match[2] ?? '/' }, served.options);
      sendAnswer(response, served.headers ? { ...answer, headers: { ...answer.headers, ...served.headers } } : answer);
    },
  });
  /** A new case of the server: its base URL, and `serve(settings)` to change what it answers. */
  const newCase = () => {
    const id = cases.length;
    cases.push(undefined);
    return { url: `${server.url}/c${id}`, prefix: `/c${id}`, serve: (settings) => (cases[id] = settings) };
  };
  try {
    const leaks = [];
    const exits = new Map();
    let runs = 0;
    let encodingsTried = 0;
    let builtRuns = 0;
    const tasks = [];
    for (const [credentialIndex, { key, secret }] of CREDENTIALS.entries()) {
      const template = join(root, `template-${credentialIndex}`);
      const clean = newCase();
      clean.serve({ options: { listing: BASE, apiKey: key, secret } });
      await mkdir(template);
      await tally.run('secrets: template pull', ['pull', '--base-url', clean.url, '--out', 'out', '--secret', secret, '--quiet'], { cwd: template, env: { SCHEMA_SYNC_API_KEY: key, SCHEMA_SYNC_CACHE_DIR: 'off' } });
      // An encoding that writes both as another did (letters and digits only) adds nothing.
      const written = new Set();
      for (const [encoding, encode] of ENCODINGS) {
        const forms = `${encode(key)}\n${encode(secret)}`;
        if (written.has(forms)) continue;
        written.add(forms);
        encodingsTried++;
        for (const [location, kind, how] of LOCATIONS) {
          const dir = join(root, `case-${tasks.length}`);
          tasks.push(async () => {
            const label = `secrets: credentials ${credentialIndex + 1}, ${encoding}, in ${location}`;
            await cp(template, join(dir, 'project'), { recursive: true });
            const served = newCase();
            const serve = (phase) => {
              const echo = how(encode(key), encode(secret), phase, served.prefix);
              const listing = echo.echo ? [...BASE, echo.echo] : BASE;
              served.serve({ options: { listing, apiKey: key, secret, trailer: echo.trailer ?? false }, answer: echo.answer, headers: echo.headers });
            };
            const env = { HOME: join(dir, 'home'), SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache'), SCHEMA_SYNC_API_KEY: key, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
            const common = ['--base-url', served.url, '--out', 'out', '--secret', secret, '--verbose', '--retries', '0', '--timeout', '10000'];
            const outputs = [];
            // The plain echoes through the built CLI (a process, as a user runs it), the rest in this process.
            const built = encoding === ENCODINGS[0][0];
            for (const [phase, args] of [['pull', ['pull', ...common]], ['check', ['check', ...common, '--format', 'github']]]) {
              serve(phase);
              const cwd = join(dir, 'project');
              const result = built
                ? await tally.start(`${label}: ${phase}`, args, { cwd, env, killAfterMs: 60_000 }).done
                : await tally.inProcess(`${label}: ${phase}`, args, { cwd, env: { PATH: process.env.PATH, ...env } });
              runs++;
              if (built) builtRuns++;
              const exit = `${kind} ${phase} ${result.code}${errorCode(result.stderr) ? ` ${errorCode(result.stderr)}` : ''}`;
              exits.set(exit, (exits.get(exit) ?? 0) + 1);
              outputs.push([`${phase} stdout`, Buffer.from(result.stdout)], [`${phase} stderr`, Buffer.from(result.stderr)]);
            }
            outputs.push(...(await filesBelow(dir)));
            for (const [where, bytes] of outputs) {
              for (const [name, value] of [['key', key], ['secret', secret]]) {
                const found = ENCODINGS.filter(([, form]) => bytes.includes(form(value))).map(([form]) => form);
                if (found.length > 0) leaks.push(`${label}: ${where} holds the ${name} (${found.join(', ')})`);
              }
            }
            await rm(dir, { recursive: true, force: true });
          });
        }
      }
    }
    await inParallel(tasks, 2);
    const words = await wordKeys(root, newCase, tally);
    console.log(`secrets: ${ENCODINGS.length} encodings (${encodingsTried} distinct over ${CREDENTIALS.length} credential pairs) × ${LOCATIONS.length} places = ${tasks.length} cases, ${runs} runs (pull --verbose, check --format github --verbose; ${builtRuns} of the built CLI, the rest in this process)`);
    console.log(`  leaks (any encoding of the key or secret in stdout, stderr, the lockfile, generated files, the step summary, the cache or home folder): ${leaks.length}`);
    console.log(`  exits: ${[...exits].sort().map(([exit, n]) => `${exit} ×${n}`).join(', ')}`);
    for (const leak of leaks.slice(0, options.verbose ? leaks.length : 20)) console.log(`  LEAK ${leak}`);
    if (!options.verbose && leaks.length > 20) console.log(`  … and ${leaks.length - 20} more (--verbose lists all)`);
    console.log(`  keys and secrets that are ordinary words (${WORD_CREDENTIALS.map(({ key, secret }) => `${key}/${secret}`).join(', ')}): ${words.runs} runs, ${words.failed.length} of ${WORD_CREDENTIALS.length} first pulls failed, ${words.masked.length} outputs with the CLI's own wording masked`);
    const shown = options.verbose ? Infinity : 3;
    for (const line of [...words.failed.slice(0, shown).map((f) => `FAILED ${f}`), ...words.masked.slice(0, shown).map((m) => `MASKED ${m}`)]) console.log(`    ${line}`);
  } finally {
    await server.close();
  }
}

/** Every file below `dir` as [relative path, bytes]. */
async function filesBelow(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile());
  return Promise.all(files.map(async (entry) => {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    return [path.slice(dir.length + 1), await readFile(path)];
  }));
}

/**
 * Keys that are words the CLI writes itself, without any echo: no output of a pull, check,
 * generate or dry run may hold `***` (nothing from outside is quoted in them).
 */
async function wordKeys(root, newCase, tally) {
  const masked = [];
  const failed = [];
  let runs = 0;
  for (const [i, { key, secret }] of WORD_CREDENTIALS.entries()) {
    const dir = join(root, `words-${i}`);
    await mkdir(dir);
    const served = newCase();
    served.serve({ options: { listing: BASE, apiKey: key, secret } });
    const env = { HOME: dir, SCHEMA_SYNC_CACHE_DIR: join(dir, 'cache'), SCHEMA_SYNC_API_KEY: key, SCHEMA_SYNC_SECRET: secret };
    const source = ['--base-url', served.url, '--out', 'out'];
    const commands = [['pull', ...source], ['check', ...source], ['generate', '--out', 'out'], ['pull', '--dry-run', ...source], ['check', ...source, '--format', 'markdown']];
    for (const args of commands) {
      const command = args.filter((arg) => !source.includes(arg)).join(' ');
      const result = await tally.start(`secrets: word key ${key}: ${command}`, args, { cwd: dir, env, killAfterMs: 60_000 }).done;
      runs++;
      // What follows a failed first pull fails for want of a lockfile: only the pull is told.
      if (result.code === 2 && args === commands[0]) failed.push(`key ${key}, secret ${secret}, ${command}: "${result.stderr.split('\n').slice(0, 2).join(' / ').replace(served.url, '<url>')}"`);
      for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]]) {
        // The request URL's credentials are masked rightly: they are the key and secret. So is
        // the word where the listing itself holds it (a 6+ character secret is scrubbed from data
        // wherever it stands: an echo cannot be told from a coincidence); the warning that says
        // so writes `***` as its own wording.
        const line = text
          .replaceAll('apikey=***', 'apikey=')
          .replaceAll('secret=***', 'secret=')
          .replaceAll('replaced by *** so', 'replaced so')
          .split('\n')
          .find((l) => l.includes('***'));
        if (line !== undefined) masked.push(`key ${key}, secret ${secret}, ${command} ${stream}: "${line.trim()}"`);
      }
    }
    await rm(dir, { recursive: true, force: true });
  }
  return { runs, masked, failed };
}
