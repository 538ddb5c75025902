// A preload (`node --import`) for the kill tests: a real CLI process is signalled at an exact
// point of its work instead of after a guessed delay, so each kill lands where the test says, on
// any machine and at any load.
//
// It watches the process's file operations under KILL_AT_ROOT: the changes (writes, renames,
// deletions, folder creation and removal, the run lock's exclusive open) and the reads of files
// and folders. KILL_AT is a JSON list of steps `{ "op": "renameSync", "path": "regex", "n": 3 }`:
// the first step matches the n-th operation named `op` ("*": any) whose path (relative to
// KILL_AT_ROOT; `from -> to` for a rename) matches `path`, then the next step counts from there.
// Right after the operation that completes the last step, the process sends itself
// KILL_AT_SIGNAL: SIGKILL ends it on the spot, as a power cut would; SIGINT and SIGTERM arrive
// as a Ctrl-C or a `kill` does, for the CLI's own handlers. KILL_AT_SIGNAL=none signals nothing
// and writes the line `kill-at: reached` to stderr instead, for a test that waits for that point.
// KILL_AT_AGAIN_MS=n sends the signal a second time n ms after the first (a second Ctrl-C).
// With KILL_AT_LOG set, each operation is appended to that file as `op<TAB>path` (to see which
// points a run passes).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.env['KILL_AT_ROOT'];
const steps = JSON.parse(process.env['KILL_AT'] ?? '[]');
const signal = process.env['KILL_AT_SIGNAL'] ?? 'SIGKILL';
const logFile = process.env['KILL_AT_LOG'];
const againMs = process.env['KILL_AT_AGAIN_MS'];
const appendLog = fs.appendFileSync;

let step = 0;
let seen = 0;
let sent = false;

/** Called after each operation that succeeded: counts it against the current step, and signals once the last one is met. */
function passed(op, paths) {
  if (root === undefined || sent) return;
  const shown = paths.map((p) => relative(root, p instanceof URL || String(p).startsWith('file:') ? fileURLToPath(p) : String(p)));
  if (shown.some((p) => p.startsWith('..') || isAbsolute(p))) return;
  const path = shown.join(' -> ');
  if (logFile !== undefined) appendLog(logFile, `${op}\t${path}\n`);
  const want = steps[step];
  if (want === undefined || (want.op !== '*' && want.op !== op) || !new RegExp(want.path).test(path) || ++seen < want.n) return;
  step++;
  seen = 0;
  if (step < steps.length) return;
  sent = true;
  if (signal === 'none') fs.writeSync(2, 'kill-at: reached\n');
  else process.kill(process.pid, signal);
  if (againMs !== undefined && signal !== 'none') setTimeout(() => process.kill(process.pid, signal), Number(againMs));
}

/** How many leading arguments are paths. */
const PATH_ARGS = { rename: 2, copyFile: 2 };
for (const [target, suffix] of [
  [fs, 'Sync'],
  [fs.promises, ''],
]) {
  for (const name of ['writeFile', 'rename', 'unlink', 'mkdir', 'rm', 'rmdir', 'copyFile', 'open', 'readFile', 'readdir']) {
    const op = `${name}${suffix}`;
    const original = target[op];
    if (original === undefined) continue;
    const paths = (args) => args.slice(0, PATH_ARGS[name] ?? 1);
    // Of the opens, only the run lock's exclusive create is an operation worth a point.
    const counted = (args) => name !== 'open' || String(args[1] ?? 'r').includes('x');
    target[op] =
      suffix === 'Sync'
        ? function (...args) {
            const result = original.apply(this, args);
            if (counted(args)) passed(op, paths(args));
            return result;
          }
        : async function (...args) {
            const result = await original.apply(this, args);
            if (counted(args)) passed(op, paths(args));
            return result;
          };
  }
}
// The CLI's modules load after this preload and see the wrapped functions.
syncBuiltinESMExports();
