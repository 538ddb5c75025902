#!/usr/bin/env node
// The npm mirror these machines use lacks most of rollup's per-platform packages, so `npm
// install` leaves them out of package-lock.json, and `npm ci` then refuses the lockfile as out
// of sync. This adds the missing entries (platform-gated and optional, so `npm ci` skips them
// here and fetches them on a machine of that platform). Run after any `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = {
  'android-arm-eabi': ['android', 'arm'], 'android-arm64': ['android', 'arm64'], 'android-x64': ['android', 'x64'],
  'darwin-arm64': ['darwin', 'arm64'], 'darwin-x64': ['darwin', 'x64'],
  'freebsd-arm64': ['freebsd', 'arm64'], 'freebsd-x64': ['freebsd', 'x64'],
  'linux-arm-gnueabihf': ['linux', 'arm', 'glibc'], 'linux-arm-musleabihf': ['linux', 'arm', 'musl'],
  'linux-arm64-gnu': ['linux', 'arm64', 'glibc'], 'linux-arm64-musl': ['linux', 'arm64', 'musl'],
  'linux-loong64-gnu': ['linux', 'loong64', 'glibc'], 'linux-loong64-musl': ['linux', 'loong64', 'musl'],
  'linux-ppc64-gnu': ['linux', 'ppc64', 'glibc'], 'linux-ppc64-musl': ['linux', 'ppc64', 'musl'],
  'linux-riscv64-gnu': ['linux', 'riscv64', 'glibc'], 'linux-riscv64-musl': ['linux', 'riscv64', 'musl'],
  'linux-s390x-gnu': ['linux', 's390x', 'glibc'], 'linux-x64-gnu': ['linux', 'x64', 'glibc'],
  'linux-x64-musl': ['linux', 'x64', 'musl'], 'openbsd-x64': ['openbsd', 'x64'],
  'openharmony-arm64': ['openharmony', 'arm64'], 'win32-arm64-msvc': ['win32', 'arm64'],
  'win32-ia32-msvc': ['win32', 'ia32'], 'win32-x64-gnu': ['win32', 'x64'], 'win32-x64-msvc': ['win32', 'x64'],
};

/** `os-cpu[-libc]` from a package name the table does not know yet. */
function guessPlatform(name) {
  const [os, cpu, abi] = name.split('-');
  return [os, cpu, abi?.startsWith('musl') ? 'musl' : abi?.startsWith('gnu') && os === 'linux' ? 'glibc' : undefined];
}

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!key.endsWith('node_modules/rollup')) continue;
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const name = dep.replace('@rollup/rollup-', '');
    const target = `${key.slice(0, -'rollup'.length)}${dep}`;
    if (lock.packages[target]) continue;
    const [os, cpu, libc] = PLATFORMS[name] ?? guessPlatform(name);
    lock.packages[target] = { version, cpu: [cpu], dev: entry.dev, ...(libc ? { libc: [libc] } : {}), license: 'MIT', optional: true, os: [os] };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
