/**
 * The one printer of the generated TypeScript files: ts-morph structures in, texts out.
 *
 * `printStructure` sets up its printers and writer anew on every call, which costs more than
 * printing a small module. So files are printed in batches: the statements of several files in
 * one source file structure, a boundary comment line as the trailing trivia of each file's last
 * statement, and the text cut apart at those lines. A file gets the bytes of printing it alone
 * (`printFile`; a test checks it), because ts-morph writes top-level statements one after the
 * other and decides what goes before a statement from the text just written: after the boundary
 * line, as at the start of a file, that is "at the start of a line, in no comment or string".
 * Two kinds of first statement break that (ts-morph puts a blank line before an interface,
 * class, function, enum or namespace unless it is first in its block), as does a last one that
 * is no structure (no trivia to hold the boundary): such files are printed alone.
 */
import { createRequire } from 'node:module';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { PrintStructureOptions, SourceFileStructure, StatementStructures } from 'ts-morph';

import type { EmittedFile } from './emit-files.js';
import { BOUNDARY, splitAtBoundaries } from './prettier-batch.js';

/** The ts-morph module, loaded by {@link loadTsMorph}. */
export type TsMorph = typeof import('ts-morph');

const require = createRequire(import.meta.url);

/**
 * ts-morph, loaded when first printing: commands that print nothing never load it. Through
 * `require`, not `import()`: it is CommonJS, and Node's ESM loader would scan all of it for export
 * names and bypass the CLI's code cache.
 */
export function loadTsMorph(): TsMorph {
  return require('ts-morph') as TsMorph;
}

/** How every generated file is printed: 2-space indent, LF, single quotes. */
const PRINT_OPTIONS: PrintStructureOptions = { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: true };

/** A file to print: its path in the output folder and its structure. */
export interface FileStructure {
  path: string;
  structure: SourceFileStructure;
}

/** At most this many files share one `printStructure` call. */
const BATCH_FILES = 25;

/** Prints one file on its own. */
export function printFile(tsMorph: TsMorph, structure: SourceFileStructure): string {
  return tsMorph.printStructure(structure, PRINT_OPTIONS);
}

/**
 * Prints files in the order given, several to a `printStructure` call where that gives the same
 * bytes (see the module comment). Yields to the event loop between batches, so a signal (Ctrl-C)
 * is handled while thousands of files are printed.
 */
export async function printFiles(tsMorph: TsMorph, files: Iterable<FileStructure>): Promise<EmittedFile[]> {
  const printed: EmittedFile[] = [];
  let batch: FileStructure[] = [];
  for (const file of files) {
    if (!canBatch(tsMorph, file.structure)) {
      printed.push({ path: file.path, text: printFile(tsMorph, file.structure) });
      continue;
    }
    batch.push(file);
    if (batch.length === BATCH_FILES) {
      printed.push(...printBatch(tsMorph, batch));
      batch = [];
      await yieldToEventLoop();
    }
  }
  printed.push(...printBatch(tsMorph, batch));
  return printed;
}

/** Statement kinds that ts-morph prints alike at the start of a file and after other text. */
function printsAlikeAnywhere({ StructureKind }: TsMorph, statement: StatementStructures): boolean {
  return [StructureKind.ImportDeclaration, StructureKind.ExportDeclaration, StructureKind.TypeAlias, StructureKind.VariableStatement].includes(statement.kind);
}

/** Whether a file may share a `printStructure` call (see the module comment). */
function canBatch(tsMorph: TsMorph, structure: SourceFileStructure): boolean {
  const { statements, leadingTrivia, trailingTrivia } = structure;
  if (!Array.isArray(statements) || statements.length === 0 || leadingTrivia !== undefined || trailingTrivia !== undefined) return false;
  const first = statements[0]!;
  const last = statements.at(-1)!;
  return typeof first === 'object' && printsAlikeAnywhere(tsMorph, first) && typeof last === 'object' && last.trailingTrivia === undefined;
}

/** Files that pass {@link canBatch}, printed in one call; each alone if the text does not cut apart. */
function printBatch(tsMorph: TsMorph, batch: readonly FileStructure[]): EmittedFile[] {
  const alone = () => batch.map((file) => ({ path: file.path, text: printFile(tsMorph, file.structure) }));
  if (batch.length < 2) return alone();
  const statements = batch.flatMap((file, i) => {
    const own = file.structure.statements as StatementStructures[];
    if (i === batch.length - 1) return own;
    return [...own.slice(0, -1), { ...own.at(-1)!, trailingTrivia: `\n${BOUNDARY}` }];
  });
  const parts = splitAtBoundaries(printFile(tsMorph, { kind: tsMorph.StructureKind.SourceFile, statements }), batch.length);
  // A file holding a boundary line of its own (a banner template may) cuts into too many parts.
  if (parts === undefined) return alone();
  return batch.map((file, i) => ({ path: file.path, text: parts[i]! }));
}
