// A separate ESM project using schema-sync as a dependency from a build script. Given the base
// URL of a running reference server, it exercises the library API and prints one JSON object.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  check,
  ConfigError,
  diffDescriptors,
  diffLockfiles,
  emit,
  fetchDescriptors,
  generate,
  LockError,
  NetworkError,
  pull,
  SchemaSyncError,
} from 'schema-sync';

const [baseUrl, apiKey, wrongKey] = process.argv.slice(2);
const cwd = await mkdtemp(join(tmpdir(), 'schema-sync-consumer-'));
const out = {};
const caught = async (fn) => {
  try {
    await fn();
    return { thrown: false };
  } catch (error) {
    return {
      thrown: true,
      name: error.name,
      code: error.code,
      isSchemaSyncError: error instanceof SchemaSyncError,
      isError: error instanceof Error,
      isNetworkError: error instanceof NetworkError,
      isLockError: error instanceof LockError,
      isConfigError: error instanceof ConfigError,
      status: error.status,
      hint: error.hint,
      message: error.message,
    };
  }
};
try {
  const fetched = await fetchDescriptors({ baseUrl, query: { cmd: 'getmsgtypes' }, apiKey });
  out.fetched = { count: fetched.descriptors.length, names: fetched.descriptors.map((d) => d.name), source: fetched.source };

  const pulled = await pull({ cwd, baseUrl, apiKey, out: 'src/generated/schema' });
  out.pull = { messageCount: pulled.messageCount, written: pulled.write.written.length, inSync: pulled.report.inSync, added: pulled.report.summary.added };

  const checked = await check({ cwd, baseUrl, apiKey, out: 'src/generated/schema' });
  out.check = { inSync: checked.report.inSync, stale: checked.report.staleFiles.length };

  const generated = await generate({ cwd, out: 'src/generated/schema' });
  out.generate = { messageCount: generated.messageCount, written: generated.write.written.length };

  const changed = fetched.descriptors.map((d, i) => (i === 0 ? { ...d, schemaHash: 'FFFFFFFFFFFFFFFF' } : d));
  out.diff = diffDescriptors({ locked: fetched.descriptors, fetched: changed }).map((c) => ({ kind: c.kind, name: c.name, severity: c.severity }));

  const lockText = await readFile(join(cwd, 'schema-sync.lock.json'), 'utf8');
  await writeFile(join(cwd, 'base.lock.json'), lockText.replace(/"schemaHash": "[^"]*"/, '"schemaHash": "OLD"'));
  const diffed = await diffLockfiles({ cwd, base: 'base.lock.json', accept: [{ rule: 'SCHEMA_HASH_CHANGED', message: 'T000?', reason: 'expected' }] });
  out.diffLockfiles = { inSync: diffed.report.inSync, accepted: diffed.report.accepted.map((c) => `${c.name} ${c.rule} ${c.reason}`) };

  const files = await emit({ messages: fetched.descriptors, source: fetched.source });
  out.emit = files.map((f) => f.path).sort();

  out.networkError = await caught(() => fetchDescriptors({ baseUrl, apiKey: wrongKey, retries: 0 }));
  out.lockError = await caught(() => generate({ cwd, lockfile: 'missing.lock.json' }));
  out.configError = await caught(() => check({ cwd }));
} finally {
  await rm(cwd, { recursive: true, force: true });
}
process.stdout.write(`${JSON.stringify(out)}\n`);
