// The hostile output folders of part 4 (issue 30, items 1–4, 8, 9): what a repository can carry
// in the output folder (a `git add -A` after a killed run, or a hostile pull request on purpose),
// each planted into a fresh copy of a pulled project. Each case's `plant(ctx)` gets the project
// (`project`, `out`, `lockfile`), a `sentinel` folder beside it and the `home` folder (both must
// come through untouched), and `feat` (a pull of another branch's listing, killed right after its
// commit point). `args` are added to each command; `asNobody` runs the CLI as `nobody` (root
// plants what belongs to root); `judge` names what else went wrong after a run.
import { readFileSync } from 'node:fs';
import { chmod, chown, cp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { hashOf } from '../../dist/util/hash.js';

const TXN = '.schema-sync-txn';
const MANIFEST = '.schema-sync-manifest.json';
const RUN_LOCK = '.schema-sync-run.lock';

/** The hand-made files of the output folder, which no case may delete, move or change. */
export const HAND_FILES = { 'NOTES.md': '# Notes kept beside the generated code\n', 'messages/helper.ts': 'export const mine = 1;\n', 'custom/keep.txt': 'mine\n' };

/** The files of the sentinel folder beside the project. */
export const SENTINEL_FILES = { id_ed25519: 'not a real key\n', 'notes.txt': 'precious\n', 'txn/journal.json': '', 'sub/deep.txt': 'deep\n' };

/** The base a journal must name to be replayed over the folder as it is: the lockfile's and manifest's hashes. */
function base(ctx) {
  return { lockfile: hashOf(readFileSync(ctx.lockfile)), manifest: hashOf(readFileSync(join(ctx.out, MANIFEST))) };
}

/** Plants a transaction folder holding `journal` (made of the folder's base when a function) and `files`. */
async function txn(ctx, journal, files = {}) {
  const dir = join(ctx.out, TXN);
  await mkdir(join(dir, 'files'), { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await writeFile(join(dir, 'journal.json'), JSON.stringify(typeof journal === 'function' ? journal(base(ctx)) : journal));
}

/** The lockfile must still be one that parses, and never another branch's. */
function lockfileWhole(ctx) {
  let text;
  try {
    text = readFileSync(ctx.lockfile, 'utf8');
    JSON.parse(text);
  } catch {
    return ['the lockfile is gone or does not parse'];
  }
  return text.includes('FeatOnly') ? ["the lockfile is feat's: a stale journal was replayed over main"] : [];
}

/** Every case: [name, { plant, args?, asNobody?, judge? }]. */
export const CASES = [
  ['txn: files/ a link to a folder outside, journal v1 writes id_ed25519 (item 1)', {
    plant: async (ctx) => {
      await mkdir(join(ctx.out, TXN));
      await writeFile(join(ctx.out, TXN, 'journal.json'), JSON.stringify({ version: 1, writes: ['id_ed25519'] }));
      await symlink(ctx.sentinel, join(ctx.out, TXN, 'files'));
    },
  }],
  ['txn: files/ a link to a folder outside, journal v2 over the right base (item 1)', {
    plant: async (ctx) => {
      await mkdir(join(ctx.out, TXN));
      await writeFile(join(ctx.out, TXN, 'journal.json'), JSON.stringify({ version: 2, base: base(ctx), writes: ['id_ed25519', 'sub/deep.txt'], deletes: [] }));
      await symlink(ctx.sentinel, join(ctx.out, TXN, 'files'));
    },
  }],
  ['txn: the transaction folder a link to a folder outside (item 1)', {
    plant: async (ctx) => {
      const there = join(ctx.sentinel, 'txn');
      await mkdir(join(there, 'files'), { recursive: true });
      await writeFile(join(there, 'files', 'notes.txt'), 'moved in from outside\n');
      await writeFile(join(there, 'journal.json'), JSON.stringify({ version: 2, base: base(ctx), writes: ['notes.txt'], deletes: [] }));
      await symlink(there, join(ctx.out, TXN));
    },
  }],
  ['txn: journal.json a link to a journal outside (item 1)', {
    plant: async (ctx) => {
      await mkdir(join(ctx.out, TXN, 'files'), { recursive: true });
      await writeFile(join(ctx.sentinel, 'txn', 'journal.json'), JSON.stringify({ version: 2, base: base(ctx), writes: [], deletes: ['NOTES.md'] }));
      await symlink(join(ctx.sentinel, 'txn', 'journal.json'), join(ctx.out, TXN, 'journal.json'));
    },
  }],
  ['legacy .schema-sync-staging a link to a folder outside (item 1)', {
    plant: (ctx) => symlink(ctx.sentinel, join(ctx.out, '.schema-sync-staging')),
  }],
  ['journal v1 deletes hand-made files (item 2)', {
    plant: (ctx) => txn(ctx, { version: 1, writes: [], deletes: ['NOTES.md', 'messages/helper.ts'] }),
  }],
  ['journal v2 over the right base deletes hand-made files (item 2)', {
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: ['NOTES.md', 'messages/helper.ts', 'custom/keep.txt'] })),
  }],
  ['journal deletes files outside by ../ and by absolute path (item 2)', {
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: ['../../sentinel/notes.txt', join(ctx.sentinel, 'id_ed25519')] })),
  }],
  ['journal writes a file outside by ../ (item 2)', {
    plant: async (ctx) => {
      // files/../../sentinel/notes.txt is out/sentinel/notes.txt; out/../../sentinel/notes.txt is the sentinel's.
      await mkdir(join(ctx.out, 'sentinel'));
      await writeFile(join(ctx.out, 'sentinel', 'notes.txt'), 'overwritten\n');
      await txn(ctx, (b) => ({ version: 2, base: b, writes: ['../../sentinel/notes.txt'], deletes: [] }));
    },
  }],
  ['journal names a lockfile outside the project (item 2)', {
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: [], lockfile: join(ctx.sentinel, 'notes.txt'), lockfileSha: hashOf('overwritten\n') }), { lockfile: 'overwritten\n' }),
  }],
  ['garbage prepared lockfile the journal names by its hash (item 2)', {
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: [], lockfile: ctx.lockfile, lockfileSha: hashOf('{"garbage": ') }), { lockfile: '{"garbage": ' }),
    judge: lockfileWhole,
  }],
  ['garbage prepared lockfile under another hash (item 2)', {
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: [], lockfile: ctx.lockfile, lockfileSha: hashOf('other') }), { lockfile: 'garbage\n' }),
    judge: lockfileWhole,
  }],
  ["a stale journal of another branch (feat's pull killed after its commit point, then main checked out) (item 3)", {
    plant: (ctx) => ctx.feat(),
    judge: lockfileWhole,
  }],
  ['run lock: a dangling symbolic link (item 4)', {
    plant: (ctx) => symlink(join(ctx.project, 'nowhere'), join(ctx.out, RUN_LOCK)),
  }],
  ['run lock: a symbolic link to a file outside (item 4)', {
    plant: (ctx) => symlink(join(ctx.sentinel, 'notes.txt'), join(ctx.out, RUN_LOCK)),
  }],
  ['run lock: a folder (item 4)', {
    plant: (ctx) => mkdir(join(ctx.out, RUN_LOCK)),
  }],
  ['run lock: root-owned, 0600, run as nobody (item 4)', {
    asNobody: true,
    plant: (ctx) => writeFile(join(ctx.out, RUN_LOCK), '1@elsewhere', { mode: 0o600 }),
  }],
  ['txn: a file where the transaction folder should be (item 8)', {
    plant: (ctx) => writeFile(join(ctx.out, TXN), 'not a folder\n'),
  }],
  ['txn: a folder named journal.json (item 8)', {
    plant: (ctx) => mkdir(join(ctx.out, TXN, 'journal.json'), { recursive: true }),
  }],
  ['txn: root-owned, run as nobody (item 8)', {
    asNobody: true,
    plant: (ctx) => txn(ctx, (b) => ({ version: 2, base: b, writes: [], deletes: ['NOTES.md'] })),
  }],
  ...['out/index.ts', 'out/messages/Type00001.ts', `out/${MANIFEST}`].map((lockfile) => [`--lockfile ${lockfile}, a generated file (item 9)`, {
    args: ['--lockfile', lockfile],
    plant: () => undefined,
  }]),
  ['manifest: a folder (item 9)', {
    plant: async (ctx) => {
      await rm(join(ctx.out, MANIFEST));
      await mkdir(join(ctx.out, MANIFEST));
    },
  }],
  ['manifest: root-owned, 0600, run as nobody (item 9)', {
    asNobody: true,
    plant: async (ctx) => {
      await chown(join(ctx.out, MANIFEST), 0, 0);
      await chmod(join(ctx.out, MANIFEST), 0o600);
    },
  }],
  ['manifest: a symbolic link to a copy outside (item 9)', {
    plant: async (ctx) => {
      await cp(join(ctx.out, MANIFEST), join(ctx.sentinel, 'manifest.json'));
      await rm(join(ctx.out, MANIFEST));
      await symlink(join(ctx.sentinel, 'manifest.json'), join(ctx.out, MANIFEST));
    },
  }],
  ['manifest: claims files outside by ../ and by absolute path, with their hashes (item 9)', {
    plant: async (ctx) => {
      const path = join(ctx.out, MANIFEST);
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      for (const [claim, file] of [['../../sentinel/notes.txt', 'notes.txt'], [join(ctx.sentinel, 'id_ed25519'), 'id_ed25519']]) {
        manifest.files[claim] = ['0', hashOf(SENTINEL_FILES[file])];
      }
      await writeFile(path, JSON.stringify(manifest, null, 2));
    },
  }],
  ['messages/ a symbolic link to a folder outside', {
    plant: async (ctx) => {
      await cp(join(ctx.out, 'messages'), join(ctx.sentinel, 'messages'), { recursive: true });
      await rm(join(ctx.out, 'messages'), { recursive: true });
      await symlink(join(ctx.sentinel, 'messages'), join(ctx.out, 'messages'));
    },
  }],
  ['generated files that a pull changes and removes, links to files outside', {
    plant: async (ctx) => {
      for (const [file, target] of [['Type00000.ts', 'notes.txt'], ['Type00039.ts', 'id_ed25519']]) {
        await rm(join(ctx.out, 'messages', file));
        await symlink(join(ctx.sentinel, target), join(ctx.out, 'messages', file));
      }
    },
  }],
  ['the prepared lockfile beside the lockfile a link to a file outside', {
    plant: (ctx) => symlink(join(ctx.sentinel, 'notes.txt'), join(ctx.project, '.schema-sync.lock.json.schema-sync-txn')),
  }],
  // Issue 42, item 14: a journal committed to a repository, every hash right, that replaces the
  // lockfile with a valid one: of the format before journals recorded their folder, and of the
  // current one with another folder's identity (a checkout cannot make the folder the run made).
  ...[['v2', { version: 2 }], ['v3 of another folder', { version: 3, folder: '1:1' }]].map(([which, head]) => [`journal ${which} over the right base replaces the lockfile with a valid one (item 14)`, {
    plant: (ctx) => txn(ctx, (b) => ({ ...head, base: b, writes: [], deletes: [], lockfile: ctx.lockfile, lockfileSha: hashOf(PLANTED_LOCKFILE) }), { lockfile: PLANTED_LOCKFILE }),
    judge: (ctx) => (readFileSync(ctx.lockfile, 'utf8') === PLANTED_LOCKFILE ? ['the planted journal replaced the lockfile'] : []),
  }]),
  ['manifest: names a hand-made module with its hash, as a file of a type the pull removes (item 14)', {
    plant: async (ctx) => {
      const path = join(ctx.out, MANIFEST);
      const manifest = JSON.parse(readFileSync(path, 'utf8'));
      manifest.files['messages/helper.ts'] = ['0', hashOf(HAND_FILES['messages/helper.ts'])];
      manifest.files['NOTES.md'] = ['0', hashOf(HAND_FILES['NOTES.md'])];
      await writeFile(path, JSON.stringify(manifest, null, 2));
    },
  }],
  // Issue 42, item 9: the lockfile's own lock, beside it, planted as what no run makes.
  ['lockfile lock: a symbolic link beside the lockfile to a file outside (item 9)', {
    plant: (ctx) => symlink(join(ctx.sentinel, 'notes.txt'), join(ctx.project, '.schema-sync.lock.json.schema-sync-lock')),
  }],
  ['lockfile lock: a folder (item 9)', {
    plant: (ctx) => mkdir(join(ctx.project, '.schema-sync.lock.json.schema-sync-lock', 'sub'), { recursive: true }),
  }],
  ['lockfile lock: held by a process gone (item 9)', {
    plant: (ctx) => writeFile(join(ctx.project, '.schema-sync.lock.json.schema-sync-lock'), `999999999@${hostname()}`),
  }],
];

/** A valid lockfile a planted journal tries to move in. */
const PLANTED_LOCKFILE = '{\n  "lockfileVersion": 1,\n  "messages": {}\n}\n';
