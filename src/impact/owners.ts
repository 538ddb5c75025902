/**
 * Which message type a generated declaration belongs to. A message module exports the message's
 * constant, whose `name` property has the message's name as its literal type; every declaration
 * of that module (the constant, its type, its record types and their properties) belongs to that
 * message. The index and `types` modules belong to no single message, but an entry of one of
 * their registries (`messages.Quote`, `messagesByNumber[10]`, `MessageRecords['Quote']`) is
 * the declaration its type comes from.
 */
import { ts } from 'ts-morph';
import { tsPath } from './overlay-host.js';

/** A use of a generated declaration: the message type it belongs to, and the field where it is one. */
export interface GeneratedUse {
  message: string;
  /** The property of the message's constant or records, when the declaration is one. */
  field?: string;
  /** True when the symbol is one of several message types at once (a property of a union of them): weaker than a use of one. */
  shared?: boolean;
}

const isProperty = (declaration: ts.Node): boolean =>
  ts.isPropertySignature(declaration) || ts.isPropertyAssignment(declaration) || ts.isPropertyDeclaration(declaration) || ts.isShorthandPropertyAssignment(declaration);

const isReference = (type: ts.Type): type is ts.TypeReference => (type.flags & ts.TypeFlags.Object) !== 0 && ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0;

/** Finds the message type of generated declarations in one program. */
export class Owners {
  readonly checker: ts.TypeChecker;
  readonly #program: ts.Program;
  readonly #root: string;
  readonly #byFile = new Map<ts.SourceFile, string | undefined>();

  constructor(program: ts.Program, outputRoot: string) {
    this.#program = program;
    this.checker = program.getTypeChecker();
    this.#root = `${tsPath(outputRoot)}/`;
  }

  /** Whether `file` is one of the generated files. */
  isGenerated(file: ts.SourceFile): boolean {
    return file.fileName.startsWith(this.#root);
  }

  /** The generated files of the program. */
  generatedFiles(): ts.SourceFile[] {
    return this.#program.getSourceFiles().filter((file) => this.isGenerated(file));
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
    const module = this.checker.getSymbolAtLocation(file);
    if (module === undefined) return undefined;
    for (const exported of this.checker.getExportsOfModule(module)) {
      if (!(exported.flags & ts.SymbolFlags.Variable)) continue;
      const type = this.checker.getTypeOfSymbol(exported);
      // The message's constant: a descriptor has a name and a number (a record validator beside it has neither).
      const name = type.getProperty('name');
      if (name === undefined || type.getProperty('mNum') === undefined) continue;
      const nameType = this.checker.getTypeOfSymbol(name);
      if (nameType.isStringLiteral()) return nameType.value;
    }
    return undefined;
  }

  /** The symbol a node names, where the checker alone does not tell: an object literal's property, a destructured one, an interface's own copy of a base's property. */
  #symbolAt(node: ts.Node): ts.Symbol | undefined {
    const parent = node.parent;
    if (parent !== undefined && (ts.isIdentifier(node) || ts.isStringLiteral(node))) {
      if ((ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isMethodDeclaration(parent)) && parent.name === node && ts.isObjectLiteralExpression(parent.parent)) {
        const contextual = this.checker.getContextualType(parent.parent);
        const property = contextual === undefined ? undefined : this.checker.getPropertyOfType(this.checker.getNonNullableType(contextual), node.text);
        if (property !== undefined) return property;
      }
      if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
        const property = this.checker.getTypeAtLocation(parent.parent).getProperty(node.text);
        if (property !== undefined) return property;
      }
      if ((ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent)) && parent.name === node && (ts.isInterfaceDeclaration(parent.parent) || ts.isClassLike(parent.parent))) {
        const own = this.checker.getSymbolAtLocation(parent.parent.name ?? parent.parent);
        const type = own === undefined ? undefined : this.checker.getDeclaredTypeOfSymbol(own);
        for (const baseType of (type !== undefined && type.isClassOrInterface() ? this.checker.getBaseTypes(type) : [])) {
          const property = baseType.getProperty(node.text);
          if (property !== undefined) return property;
        }
      }
    }
    return this.checker.getSymbolAtLocation(node);
  }

  /** What the symbol at `node` refers to among the generated declarations: none, one, or (a property of a union) several. */
  usesAt(node: ts.Node): GeneratedUse[] {
    let symbol = this.#symbolAt(node);
    if (symbol === undefined) return [];
    if (symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const uses = new Map<string, GeneratedUse>();
    for (const declaration of symbol.declarations ?? []) {
      const file = declaration.getSourceFile();
      if (!this.isGenerated(file)) continue;
      const message = this.messageOf(file);
      if (message !== undefined) {
        uses.set(message, isProperty(declaration) ? { message, field: symbol.name } : { message });
      } else if (isProperty(declaration) || ts.isVariableDeclaration(declaration)) {
        // A registry's entry, or a value of a module shared by every type (a record validator): the declarations its type comes from.
        for (const use of this.usesOfType(this.checker.getTypeOfSymbolAtLocation(symbol, declaration))) uses.set(use.message, use);
      }
    }
    const found = [...uses.values()];
    return found.length > 1 ? found.map((use) => ({ ...use, shared: true })) : found;
  }

  /**
   * The message types whose declarations `type` is: its symbol's, its alias's, else those of its
   * type arguments (`Schema<QuoteRecord>`, one level down).
   */
  usesOfType(type: ts.Type, depth = 0): GeneratedUse[] {
    const uses: GeneratedUse[] = [];
    for (const symbol of [type.aliasSymbol, type.getSymbol()]) {
      for (const declaration of symbol?.declarations ?? []) {
        const message = this.messageOf(declaration.getSourceFile());
        if (message !== undefined && !uses.some((use) => use.message === message)) uses.push({ message });
      }
    }
    if (uses.length > 0 || depth > 0) return uses;
    const typeArguments = [...(type.aliasTypeArguments ?? []), ...(isReference(type) ? this.checker.getTypeArguments(type) : [])];
    for (const argument of typeArguments) for (const use of this.usesOfType(argument, depth + 1)) if (!uses.some((u) => u.message === use.message)) uses.push(use);
    return uses;
  }
}
