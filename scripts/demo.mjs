#!/usr/bin/env node
// The demo: serve examples/descriptors.json with the bundled reference server, then run the
// built CLI's `pull` into generated-example/ (lockfile inside it), then stop the server.
// With fields: the five types examples/descriptors.schemas.json describes, pulled with --fields
// --int64 bigint (target ts) into <output folder>-records (generated-example-records), from a
// second server on the next fixed port.
// Usage: npm run demo [-- <output folder>]   (default generated-example)
// The port is fixed so the base URL recorded in the lockfile and banners is the same on every
// machine: the committed example must regenerate byte for byte.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'generated-example'));
const PORT = 47211;

const { startReferenceServer } = await import(join(root, 'dist/server/index.js'));
const listing = JSON.parse(await readFile(join(root, 'examples/descriptors.json'), 'utf8'));
// Another demo (a test run in a second checkout) may hold the fixed port for a moment: wait for it.
const schemas = JSON.parse(await readFile(join(root, 'examples/descriptors.schemas.json'), 'utf8'));
const described = listing.filter((element) => Object.hasOwn(schemas, element.message.name));
const code = await pullFrom({ listing, port: PORT, trailer: {} }, [
  '--cmd', 'getmsgtypes',
  '--out', out,
  '--lockfile', join(out, 'schema-sync.lock.json'),
  '--package', 'example-schema-types',
]);
const records = `${out}-records`;
process.exitCode = code !== 0 ? code : await pullFrom({ listing: described, schemas, port: PORT + 1, trailer: {} }, [
  '--out', records,
  '--lockfile', join(records, 'schema-sync.lock.json'),
  '--fields',
  '--int64', 'bigint',
]);

/** Serves `options` and runs the built CLI's pull from it with `args`; its exit code. */
async function pullFrom(options, args) {
  const server = await startOnFixedPort(options);
  try {
    return await new Promise((resolveCode, reject) => {
      const child = spawn(process.execPath, [join(root, 'dist/cli/bin.js'), 'pull', '--base-url', server.url, ...args], {
        stdio: 'inherit',
        cwd: root,
        env: { ...process.env, NO_COLOR: '1' },
      });
      child.on('error', reject);
      child.on('exit', (c) => resolveCode(c ?? 1));
    });
  } finally {
    await server.close();
  }
}

/** Starts the reference server on its fixed port, retrying for up to a minute while the port is taken. */
async function startOnFixedPort(options) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startReferenceServer(options);
    } catch (error) {
      if (attempt >= 240 || !/EADDRINUSE/.test(String(error?.message))) throw error;
      await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
  }
}
