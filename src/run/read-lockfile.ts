import { findMergeConflict, LockfileText } from '../lock/index.js';
import { LockError } from '../model/errors.js';
import type { FolderView } from '../write/index.js';
import type { Incremental, RecordedLockfile } from '../incremental/index.js';
import type { RunContext } from './run-context.js';
import { msg, type Message } from '../model/message.js';
import { settingsRecord, settingsRecordSchema } from '../lock/settings-record.js';
import type { GenerationSettings } from '../model/lockfile.js';

/** A lockfile as found: its text, or its current branch's side when git left conflict markers in it. */
export interface FoundLockfile {
  lockfile: LockfileText;
  /** The file's text as read, conflict markers and all. */
  text: string;
  /** The line of the first merge conflict marker, when there are any. */
  conflictAt: number | undefined;
}

/**
 * The run's lockfile as the next command will see it (a pending interrupted run's, if any), its
 * head as the cache recorded it for its hash; undefined when there is none (the first pull).
 */
export async function readLockfile(run: RunContext, cache: Incremental, view: FolderView): Promise<FoundLockfile | undefined> {
  const path = run.paths.lockfilePath;
  const text = await view.readLockfile(path);
  if (text === undefined) return undefined;
  const conflict = findMergeConflict(text);
  return { lockfile: new LockfileText(conflict?.ours ?? text, path, (hash) => recordedHead(cache, hash)), text, conflictAt: conflict?.line };
}

/** What the cache may take as known of a valid lockfile (one schema-sync wrote, or read whole): its hash and head. */
export function lockfileFacts(lockfile: LockfileText): RecordedLockfile {
  const { settings, messageCount } = lockfile.head();
  // As the lockfile records them, and read back as the lockfile's are: a cache another build wrote may name them otherwise.
  return { hash: lockfile.hash, settings: settingsRecord(settings) as GenerationSettings, messageCount };
}

/** The head the cache recorded for the lockfile with this hash, its settings read as the lockfile's; none when they do not read. */
function recordedHead(cache: Incremental, hash: string): { settings: GenerationSettings; messageCount: number } | undefined {
  const known = cache.lockfileHead(hash);
  const settings = settingsRecordSchema.safeParse(known?.settings);
  return known === undefined || !settings.success ? undefined : { settings: settings.data, messageCount: known.messageCount };
}

/**
 * The lockfile, for commands that cannot work without one or with a conflicted one: a LockError
 * ending with `what` when there is none, and one that says how to resolve merge conflicts.
 */
export async function requireLockfile(run: RunContext, cache: Incremental, view: FolderView, what: { detail: Message; hint: Message }): Promise<LockfileText> {
  const path = run.paths.lockfilePath;
  const found = await readLockfile(run, cache, view);
  if (found === undefined) throw new LockError(msg`no lockfile at ${path}${what.detail}`, { hint: what.hint, missing: true });
  if (found.conflictAt !== undefined) {
    throw new LockError(msg`${path} has git merge conflict markers (line ${found.conflictAt}).`, {
      hint: msg`Resolve them: \`schema-sync pull\` takes your branch's side as the baseline and writes a clean lockfile; or keep one side with \`git checkout --ours ${path}\` (or --theirs).`,
    });
  }
  return found.lockfile;
}
