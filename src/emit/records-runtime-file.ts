/**
 * The records runtime in the output folder (fields on): `records-runtime.ts` (`.mts`), or
 * `records-runtime.js` with its `.d.ts`, after the banner. Its text is schema-sync's own, written
 * once in `runtime/records-runtime.ts`; the JavaScript and declarations beside it are
 * made from that source by `scripts/build-runtime.mjs` (a test holds them to it).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { fileURLToPath } from 'node:url';
import type { ModuleKind } from './targets.js';

/** The folder of the runtime's texts, `runtime/` of schema-sync's package (not a template: a user cannot replace it). */
const RUNTIME_DIR = fileURLToPath(new URL('../../runtime/', import.meta.url));

/** The file of the runtime's text for each kind of module. */
const SOURCES: Readonly<Record<ModuleKind, string>> = { ts: 'records-runtime.ts', mts: 'records-runtime.ts', js: 'records-runtime.js', dts: 'records-runtime.d.ts' };

/**
 * The head of the runtime's code (`.ts`, `.mts`, `.js`; not its declarations): every consumer's
 * compiler would otherwise check it again, which cost about as much as checking the 264 message
 * modules of the real listing (bench/README.md, "Type-check of the generated folder"), and flag it
 * under options schema-sync cannot know (`noUnusedLocals`, `checkJs` …). It is checked where it is
 * written, under the strictest options (test/emit/records-parse.test.ts); its declarations stay
 * checked and typed.
 */
const NO_CHECK = "// schema-sync's own code, checked where it is written: a project's compiler need not check it again.\n// @ts-nocheck\n";

/** The runtime's text for a kind of module (without the banner). */
export async function recordsRuntimeText(kind: ModuleKind): Promise<string> {
  const text = await readFile(join(RUNTIME_DIR, SOURCES[kind]), 'utf8');
  return kind === 'dts' ? text : `${NO_CHECK}${text}`;
}
