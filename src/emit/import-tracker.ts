/**
 * What a generated module imports and re-exports, recorded from what it uses, as protoplugin's
 * `GeneratedFile` does: the code that writes a module names each symbol it uses and the module
 * it comes from ({@link ImportTracker.use}), and the import declarations are derived from those
 * uses. No import line is written by hand, so a module imports exactly what it uses.
 */
import type { CodeBlockWriter } from 'ts-morph';

import { compareStrings } from '../model/descriptor.js';
import { stringLiteral } from '../text/safe-text.js';
import { writeLines } from './writers.js';

/** One name of an import or export declaration. */
export interface DeclaredName {
  name: string;
  /** Whether only the name's type is used (`type X`, or the whole declaration `import type`). */
  isTypeOnly: boolean;
}

/** An `import { … } from '…'` or `export { … } from '…'` derived from the tracked uses. */
export interface ModuleDeclaration {
  moduleSpecifier: string;
  /** Sorted by name. */
  names: DeclaredName[];
}

/** Names by module specifier, in the order the modules were first named; per name whether only its type is used. */
type NameTable = Map<string, Map<string, boolean>>;

function record(table: NameTable, name: string, from: string, typeOnly: boolean): void {
  let names = table.get(from);
  if (names === undefined) table.set(from, (names = new Map()));
  // A name used as a value once is imported as a value.
  names.set(name, typeOnly && names.get(name) !== false);
}

function declarations(table: NameTable): ModuleDeclaration[] {
  return [...table].map(([moduleSpecifier, names]) => ({
    moduleSpecifier,
    names: [...names].map(([name, isTypeOnly]) => ({ name, isTypeOnly })).sort((a, b) => compareStrings(a.name, b.name)),
  }));
}

/** The imports and re-exports of one generated module, recorded as it is modelled. */
export class ImportTracker {
  readonly #imports: NameTable = new Map();
  readonly #reexports: NameTable = new Map();

  /**
   * Records that the module uses `name`, exported by the module `from` (a specifier relative to
   * the module), as a value or, with `type`, only as a type; returns the name to write.
   */
  use(name: string, from: string, options: { type?: boolean } = {}): string {
    record(this.#imports, name, from, options.type === true);
    return name;
  }

  /** Records that the module re-exports `name` of the module `from`: a value or, with `type`, only a type. */
  reexport(name: string, from: string, options: { type?: boolean } = {}): void {
    record(this.#reexports, name, from, options.type === true);
  }

  /** The import declarations: modules in the order first used, names sorted. */
  imports(): ModuleDeclaration[] {
    return declarations(this.#imports);
  }

  /** The `export … from` declarations: modules in the order first named, names sorted. */
  reexports(): ModuleDeclaration[] {
    return declarations(this.#reexports);
  }
}

/**
 * One `import` (or `export`) declaration on one line: `import type { A, B } from '…';` when
 * every name is a type, else `import { A, type B } from '…';`. Without `types`, type-only names
 * are left out (plain JavaScript has no types), and a declaration left empty is `undefined`.
 */
export function declarationLine(keyword: 'import' | 'export', declaration: ModuleDeclaration, options: { types: boolean }): string | undefined {
  const kept = options.types ? declaration.names : declaration.names.filter((name) => !name.isTypeOnly);
  if (kept.length === 0) return undefined;
  const allTypes = kept.every((name) => name.isTypeOnly);
  const list = kept.map((name) => (name.isTypeOnly && !allTypes ? `type ${name.name}` : name.name)).join(', ');
  return `${keyword}${allTypes ? ' type' : ''} { ${list} } from ${stringLiteral(declaration.moduleSpecifier)};`;
}

/** Writes `import` (or `export`) declarations, one a line ({@link declarationLine}). */
export function writeDeclarations(writer: CodeBlockWriter, keyword: 'import' | 'export', declared: readonly ModuleDeclaration[], options: { types: boolean }): void {
  const lines: string[] = [];
  for (const declaration of declared) {
    const line = declarationLine(keyword, declaration, options);
    if (line !== undefined) lines.push(line);
  }
  // One call for all of them: see writeLines.
  writeLines(writer, lines);
}
