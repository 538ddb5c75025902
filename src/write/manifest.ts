import { compareStrings } from '../model/descriptor.js';
import { WriteError } from '../model/errors.js';
import { hashOf, type HashedText } from '../util/hash.js';
import { noChanges, type ChangeSet } from './change-set.js';
import type { FolderView } from './folder-view.js';
import { isSafeRelativePath } from './safe-path.js';
import { msg, own } from '../model/message.js';

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

/** Manifest text: sorted paths, one line each, stable bytes. */
export function serializeManifest(manifest: Manifest): string {
  const paths = [...manifest.keys()].sort(compareStrings);
  const lines = paths.map((path) => {
    const entry = manifest.get(path)!;
    return `    ${JSON.stringify(path)}: ${JSON.stringify([entry.input, entry.sha])}`;
  });
  const files = lines.length === 0 ? '{}' : `{\n${lines.join(',\n')}\n  }`;
  return `{\n  "generator": "schema-sync",\n  "files": ${files}\n}\n`;
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
