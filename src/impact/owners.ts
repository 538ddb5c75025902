/**
 * Which message type a generated declaration belongs to. A message module exports the message's
 * constant, whose `name` property has the message's name as its literal type; every declaration
 * of that module (the constant, its type, its record types) belongs to that message. The index
 * and `types` modules belong to no single message.
 */
import { ts } from 'ts-morph';
import { tsPath } from './overlay-host.js';

/** A use of a generated declaration: the message type it belongs to, and the field where it is one. */
export interface GeneratedUse {
  message: string;
  /** The property of the message's constant or records, when the declaration is one. */
  field?: string;
}

/** Finds the message type of generated declarations in one program. */
export class Owners {
  readonly #checker: ts.TypeChecker;
  readonly #root: string;
  readonly #byFile = new Map<ts.SourceFile, string | undefined>();

  constructor(program: ts.Program, outputRoot: string) {
    this.#checker = program.getTypeChecker();
    this.#root = `${tsPath(outputRoot)}/`;
  }

  /** Whether `file` is one of the generated files. */
  isGenerated(file: ts.SourceFile): boolean {
    return file.fileName.startsWith(this.#root);
  }

  /** A generated file's path relative to the output folder. */
  pathOf(file: ts.SourceFile): string {
    return file.fileName.slice(this.#root.length);
  }

  /** The message type a generated module describes; undefined for other files. */
  messageOf(file: ts.SourceFile): string | undefined {
    if (!this.isGenerated(file)) return undefined;
    if (this.#byFile.has(file)) return this.#byFile.get(file);
    const message = this.#findMessage(file);
    this.#byFile.set(file, message);
    return message;
  }

  #findMessage(file: ts.SourceFile): string | undefined {
    const module = this.#checker.getSymbolAtLocation(file);
    if (module === undefined) return undefined;
    for (const exported of this.#checker.getExportsOfModule(module)) {
      if (!(exported.flags & ts.SymbolFlags.Variable)) continue;
      const name = this.#checker.getTypeOfSymbol(exported).getProperty('name');
      if (name === undefined) continue;
      const type = this.#checker.getTypeOfSymbol(name);
      if (type.isStringLiteral()) return type.value;
    }
    return undefined;
  }

  /** What the symbol at `node` refers to among the generated declarations, if anything. */
  useAt(node: ts.Node): GeneratedUse | undefined {
    let symbol = this.#checker.getSymbolAtLocation(node);
    if (symbol === undefined) return undefined;
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.#checker.getAliasedSymbol(symbol);
    for (const declaration of symbol.declarations ?? []) {
      const message = this.messageOf(declaration.getSourceFile());
      if (message === undefined) continue;
      const property = ts.isPropertySignature(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration);
      return property ? { message, field: symbol.name } : { message };
    }
    return undefined;
  }
}
