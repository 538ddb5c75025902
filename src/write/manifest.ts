import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';
import { hashOf, type HashedText } from '../util/hash.js';
import { noChanges, type ChangeSet } from './change-set.js';
import type { FolderView } from './folder-view.js';
import { isSafeRelativePath } from './safe-path.js';
import { msg, own, type Message } from '../model/message.js';

/**
 * File in the output folder that lists what schema-sync generated there — so only those are
 * ever deleted — with, per file, the fingerprint of its inputs and a hash of its bytes, so a run
 * can tell without emitting which files are already right.
 */
export const MANIFEST_FILE = '.schema-sync-manifest.json';

/** What the manifest records of one generated file. */
export interface ManifestEntry {
  /** Fingerprint of the inputs the text was generated from. */
  input: string;
  /** Hash of the bytes written. */
  sha: string;
}

/** Generated files by path. */
export type Manifest = Map<string, ManifestEntry>;

/**
 * Manifest text: sorted paths, one line each, stable bytes; with `lockfile`, the stamp of the
 * lockfile the folder was generated from ({@link lockfileStamp}), so that a run can tell when
 * another run rewrote the lockfile since (see {@link ManifestText.lockfile}).
 */
export function serializeManifest(manifest: Manifest, lockfile?: string): string {
  const paths = [...manifest.keys()].sort(compareStrings);
  const lines = paths.map((path) => {
    const entry = manifest.get(path)!;
    return `    ${JSON.stringify(path)}: ${JSON.stringify([entry.input, entry.sha])}`;
  });
  const files = lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n  }`;
  const stamp = lockfile === undefined ? '' : `\n  "lockfile": ${JSON.stringify(lockfile)},`;
  return `{\n  "generator": "schema-sync",${stamp}\n  "files": ${files}\n}\n`;
}

/**
 * What a manifest records of the lockfile its folder was generated from: the hash of its text with
 * LF line endings (a checkout with CRLF endings is the same lockfile), without its `source` record
 * (where the listing came from: another spelling of the same service's URL is the same output).
 * The lockfile itself records nothing of the folder, so its bytes stay the same for every folder
 * and every machine.
 */
export function lockfileStamp(lockfile: { text: string }): string {
  const text = lockfile.text.includes('\r\n') ? lockfile.text.replaceAll('\r\n', '\n') : lockfile.text;
  // In schema-sync's layout the source record ends at the first closing brace indented by two.
  const start = text.indexOf(SOURCE_RECORD);
  const end = start < 0 ? -1 : text.indexOf(RECORD_END, start + SOURCE_RECORD.length);
  return hashOf(end < 0 ? text : text.slice(0, start) + text.slice(end + RECORD_END.length));
}

const SOURCE_RECORD = '\n  "source": {';
const RECORD_END = '\n  }';

/**
 * The warning of a pull whose lockfile is not the one its output folder was last generated from:
 * another run rewrote it since (most likely one for another output folder that shares it), and
 * that folder is now what the lockfile generates, this one is not.
 */
export function lockfileMovedWarning(lockfilePath: string, outDir: string): Message {
  return msg`${lockfilePath} is not the lockfile ${outDir} was last generated from: it was rewritten since, by a run for another output folder that shares it, or by a checkout or a hand edit. This pull compares the listing with the lockfile as it is now and generates ${outDir} from the result; an output folder that shares the lockfile is behind it now: run schema-sync generate --out <that folder>, or give each folder its own --lockfile.`;
}

/** A manifest as found in the folder: its text, its hash, and its entries parsed on first use. */
export class ManifestText implements HashedText {
  readonly hash: string;
  #entries: Manifest | undefined;
  #kept: ChangeSet | undefined;

  /** `entries`: when known already (the manifest a run has just written). */
  constructor(
    readonly text: string,
    readonly outDir: string,
    entries?: Manifest,
  ) {
    this.hash = hashOf(text);
    this.#entries = entries;
  }

  /** The entries by path; a WriteError when the manifest is damaged. */
  entries(): Manifest {
    return (this.#entries ??= parseManifest(this.text, this.outDir));
  }

  /** The stamp of the lockfile the folder was generated from ({@link lockfileStamp}); undefined when the manifest records none (written by an older schema-sync). */
  lockfile(): string | undefined {
    return /^\{\n {2}"generator": "schema-sync",\n {2}"lockfile": "([0-9a-z]+)",/.exec(this.text)?.[1];
  }

  /** The change set of a folder known to hold the `count` files this manifest lists, as listed: nothing to do, and nothing parsed. */
  unchanged(count: number): ChangeSet {
    return (this.#kept = noChanges(() => this.entries(), count));
  }

  /** Whether `changes` leaves the folder with this manifest as it is: the change set {@link unchanged} gave. */
  keptBy(changes: ChangeSet): boolean {
    return changes === this.#kept;
  }
}

/** Reads the folder's manifest; undefined for a folder without one (a first run, or a foreign folder). */
export async function readManifest(view: FolderView, outDir: string): Promise<ManifestText | undefined> {
  const bytes = await view.read(MANIFEST_FILE);
  // Read as written: a checkout with core.autocrlf=true holds it with CRLF, which is no reason to rewrite it.
  return bytes === undefined ? undefined : new ManifestText(bytes.toString('utf8').replaceAll('\r\n', '\n'), outDir);
}

/** The entries of a manifest's text; `outDir` names the folder in errors. */
export function parseManifest(text: string, outDir: string): Manifest {
  const manifest: Manifest = new Map();
  try {
    const parsed = JSON.parse(text) as { files?: unknown };
    // A bare list (the first manifest format) still says which files are ours; all count as stale.
    const files = Array.isArray(parsed.files) ? Object.fromEntries(parsed.files.map((p) => [String(p), []])) : parsed.files;
    if (files === null || typeof files !== 'object' || Array.isArray(files)) throw new Error('no "files" object');
    for (const [path, value] of Object.entries(files)) {
      if (!isSafeRelativePath(path)) continue;
      const [input, sha] = Array.isArray(value) ? value : [];
      manifest.set(path, { input: typeof input === 'string' ? input : '', sha: typeof sha === 'string' ? sha : '' });
    }
    return manifest;
  } catch (error) {
    throw new WriteError(msg`${outDir}/${own(MANIFEST_FILE)} is damaged (${(error as Error).message}).`, {
      hint: msg`Delete it and the generated files, then run schema-sync generate.`,
    });
  }
}
