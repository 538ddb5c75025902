/**
 * Helpers of the hardening tests: synthetic listings, a seeded random source, byte-exact folder
 * comparison, which known state a folder is in, and CLI children the test can signal (shared with
 * scripts/adversarial.mjs through test/helpers/folder-states.mjs), and a look for leaked secrets.
 */
import { openFolderView } from '../../src/write/folder-view.js';
import { visibleState as visibleStateThrough, type FolderState } from '../helpers/folder-states.mjs';

export {
  hashOf,
  movedListing,
  roomyTempDir,
  seededRandom,
  startCli,
  stateOnDisk,
  syntheticElement,
  syntheticListing,
  treeDifference,
  type CliChild,
  type FolderState,
} from '../helpers/folder-states.mjs';

/**
 * Which known state the next schema-sync command sees, reading only (as `check` does), through
 * the folder view that honours a pending journal. Throws when it is none of them (a mix).
 */
export function visibleState(outDir: string, lockfilePath: string, states: readonly FolderState[]): Promise<FolderState> {
  return visibleStateThrough(openFolderView, outDir, lockfilePath, states);
}

/** Every text a run could leak a secret into, labelled for the failure message. */
export function leaks(secrets: readonly string[], texts: Iterable<readonly [string, string]>): string[] {
  const found: string[] = [];
  for (const [label, text] of texts) {
    for (const secret of secrets) {
      for (const form of new Set([secret, encodeURIComponent(secret)])) if (text.includes(form)) found.push(`${label} contains ${secret}`);
    }
  }
  return found;
}
