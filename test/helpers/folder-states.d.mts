// Types of folder-states.mjs (plain JavaScript so that scripts/adversarial.mjs runs under plain node).
import type { ChildProcess } from 'node:child_process';
import type { WireElement } from './listing.js';

/** A known state of the output folder and lockfile. */
export interface FolderState {
  name: string;
  tree: ReadonlyMap<string, string>;
  lockfile: string;
}

/** The part of a folder view (src/write/folder-view.ts) that judging a state reads. */
export interface ReadOnlyView {
  read(path: string): Promise<Buffer | undefined>;
  readLockfile(path: string): Promise<string | undefined>;
}

/** A running CLI child the caller can signal. */
export interface CliChild {
  child: ChildProcess;
  startedAt: number;
  /** Resolves when it exits: code or signal, output, and when. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; exitedAt: number }>;
}

export const BIN: string;
export function seededRandom(seed: number): () => number;
export function hashOf(index: number, version: number): string;
export function syntheticElement(index: number, version?: number, extra?: Record<string, unknown>): WireElement;
export function syntheticListing(count: number): WireElement[];
export function movedListing(count: number): WireElement[];
export function roomyTempDir(prefix: string): Promise<string>;
export function readTree(dir: string): Promise<Map<string, string>>;
export function treeDifference(actual: ReadonlyMap<string, string>, expected: ReadonlyMap<string, string>): string | undefined;
export function stateOnDisk(outDir: string, lockfilePath: string, states: readonly FolderState[], ignore?: readonly string[]): Promise<FolderState | undefined>;
export function visibleState(
  openFolderView: (outDir: string) => Promise<ReadOnlyView>,
  outDir: string,
  lockfilePath: string,
  states: readonly FolderState[],
): Promise<FolderState>;
export function startCli(args: string[], options: { cwd: string; env?: Record<string, string>; nodeArgs?: string[]; asUser?: string }): CliChild;
