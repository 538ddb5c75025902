/**
 * Attributing a new diagnostic of the consumer's code to the message type (and field) whose
 * change caused it. The code at the diagnostic is read as it stood against the old output and
 * against the new one, and followed back to the generated declarations:
 *
 * - the names it uses, as each checker resolves them: identifiers, a property named by a string
 *   or number (`X['field']`, `messages['Quote']`, `messagesByNumber[10]`), an object literal's
 *   property (by its contextual type: `satisfies`, a typed variable or argument), a destructured
 *   property, an interface's property that re-declares a base's; an entry of a registry (the
 *   index's `messages`, `MessageRecords`) is the message type its type comes from;
 * - a string that names a changed message type (`MessageByName<'Quote'>`, `recordOf('Quote')`);
 * - the consumer's own declarations those names lead to, followed to where their types come
 *   from (an alias or interface in another file, through its barrel; a variable's type and
 *   initialiser; a parameter's type; a destructuring's source; a function's signature; JSDoc
 *   types and typedefs), a few steps deep;
 * - as the last resort, the types at the diagnostic: a type declared by a changed message's
 *   module, or the declared type of one of its properties (a union of enum values, a tuple of actions).
 *
 * The search starts at the diagnostic's node and widens to the expressions around it, never past
 * the statement that holds it (nested blocks and bodies are not searched). Of the properties
 * found, those whose declarations changed name the field; else a changed field the diagnostic's
 * text quotes; else the message type's one changed field.
 */
import { ts } from 'ts-morph';
import type { ChangedMessages } from './changed-fields.js';
import type { GeneratedUse, Owners } from './owners.js';

/** How many of the consumer's declarations deep a name is followed. */
const CHASE_DEPTH = 4;

/** The innermost token of `file` that spans `position`. */
export function tokenAt(file: ts.SourceFile, position: number): ts.Node {
  let node: ts.Node = file;
  for (;;) {
    const child = node.getChildren(file).find((c) => c.getStart(file) <= position && position < c.getEnd());
    if (child === undefined) return node;
    node = child;
  }
}

/** The innermost node of `file` that covers the span `start`..`start + length`. */
function nodeSpanning(file: ts.SourceFile, start: number, length: number): ts.Node {
  let node = tokenAt(file, start);
  while (node.parent !== undefined && node.getEnd() < start + length) node = node.parent;
  return node;
}

/** Nodes below which other code than the one at hand begins. */
function startsOtherCode(node: ts.Node): boolean {
  return ts.isBlock(node) || ts.isCaseBlock(node) || ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isModuleBlock(node);
}

function isStatementLike(node: ts.Node): boolean {
  return ts.isStatement(node) || ts.isClassElement(node) || ts.isTypeElement(node) || ts.isEnumMember(node);
}

/** The parts of a function-like declaration that give its types: not its body. */
function signatureParts(node: ts.SignatureDeclaration): ts.Node[] {
  return [...(node.typeParameters ?? []), ...node.parameters, ...(node.type === undefined ? [] : [node.type])];
}

/** Changed names quoted in a diagnostic's text (`'Quote'`, `"side"`). */
function quoted(text: string, among: (name: string) => boolean): string[] {
  return [...new Set([...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!).filter(among))];
}

/** Attributes the new diagnostics of one project's compile. */
export class Attribution {
  readonly #sides: readonly Owners[];
  readonly #changed: ChangedMessages;
  readonly #typeIndex = new Map<Owners, Map<string, GeneratedUse[]>>();
  readonly #typeIds = new Map<ts.Type, number>();

  /** `sides`: the old and the new program's owners; `changed`: what changed in the generated declarations. */
  constructor(sides: readonly Owners[], changed: ChangedMessages) {
    this.#sides = sides;
    this.#changed = changed;
  }

  /**
   * The changed message types (and fields) a diagnostic at `start` (`length` long) of `file`
   * comes from; empty when it cannot tell. `text` is the diagnostic's whole message.
   */
  of(file: ts.SourceFile, start: number, length: number, text: string): GeneratedUse[] {
    const first = nodeSpanning(file, start, length);
    let widest = first;
    for (let node: ts.Node | undefined = first; node !== undefined && !ts.isSourceFile(node); node = node.parent) {
      widest = node;
      const uses = this.#usesIn(node);
      if (uses.length > 0) return this.#named(uses, text);
      if (isStatementLike(node) || ts.isFunctionLike(node)) break;
    }
    const byText = quoted(text, (name) => this.#changed.names.has(name)).map((message) => ({ message }));
    if (byText.length > 0) return this.#named(byText, text);
    return this.#named(expressionsIn(widest).flatMap((node) => this.#usesOfTypeAt(node)), text);
  }

  /** The generated declarations and changed message names that `scope` refers to (outside nested code), and those its own declarations lead to. */
  #usesIn(scope: ts.Node): GeneratedUse[] {
    const uses: GeneratedUse[] = [];
    const seen = new Set<ts.Node>();
    const visit = (node: ts.Node, depth: number, inScope: boolean): void => {
      if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node) || ts.isStringLiteralLike(node) || ts.isNumericLiteral(node)) this.#usesOfName(node, depth, uses, seen, chase);
      for (const child of childrenOf(node)) {
        if (inScope && (startsOtherCode(child) || (isStatementLike(child) && !ts.isTypeElement(scope)))) continue;
        visit(child, depth, inScope);
      }
    };
    const chase = (declaration: ts.Node, depth: number): void => {
      if (depth > CHASE_DEPTH || seen.has(declaration)) return;
      seen.add(declaration);
      for (const part of declarationParts(declaration)) visit(part, depth, false);
    };
    visit(scope, 0, true);
    return uses.filter((use) => this.#changed.names.has(use.message));
  }

  /** The uses one name makes, on either side; a name of the consumer's own is followed to its declarations. */
  #usesOfName(node: ts.Node, depth: number, uses: GeneratedUse[], seen: Set<ts.Node>, chase: (declaration: ts.Node, depth: number) => void): void {
    if (ts.isStringLiteralLike(node) && this.#changed.names.has(node.text)) uses.push({ message: node.text });
    let found = false;
    for (const side of this.#sides) {
      const generated = side.usesAt(node);
      uses.push(...generated);
      found ||= generated.length > 0;
    }
    if (found || !ts.isIdentifier(node)) return;
    for (const side of this.#sides) {
      let symbol = side.checker.getSymbolAtLocation(node);
      if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) symbol = side.checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.declarations ?? []) {
        const file = declaration.getSourceFile();
        if (side.isGenerated(file) || file.isDeclarationFile || seen.has(declaration)) continue;
        chase(declaration, depth + 1);
      }
    }
  }

  /** The changed message types whose declarations the types at `node` come from, on either side. */
  #usesOfTypeAt(node: ts.Node): GeneratedUse[] {
    if (!(ts.isExpression(node) || ts.isTypeNode(node) || ts.isVariableDeclaration(node) || ts.isParameter(node))) return [];
    const uses: GeneratedUse[] = [];
    for (const side of this.#sides) {
      const type = side.checker.getTypeAtLocation(node);
      const index = this.#indexOf(side);
      for (const candidate of [type, side.checker.getNonNullableType(type), ...(type.isUnion() ? type.types : [])]) {
        uses.push(...side.usesOfType(candidate), ...(index.get(this.#keyOf(candidate)) ?? []));
      }
    }
    return uses.filter((use) => this.#changed.names.has(use.message));
  }

  /**
   * A type's identity for {@link #indexOf}: a union by its members, as a union made through an alias
   * (`NonNullable<QuoteRecord['side']>`) is another type object than the one declared.
   */
  #keyOf(type: ts.Type): string {
    const id = (t: ts.Type): number => {
      let found = this.#typeIds.get(t);
      if (found === undefined) this.#typeIds.set(t, (found = this.#typeIds.size));
      return found;
    };
    return type.isUnion() ? type.types.map(id).sort((a, b) => a - b).join('|') : String(id(type));
  }

  /** The declared types of every property of the changed message types' modules, on one side, by {@link #keyOf}. */
  #indexOf(side: Owners): Map<string, GeneratedUse[]> {
    let index = this.#typeIndex.get(side);
    if (index !== undefined) return index;
    index = new Map();
    this.#typeIndex.set(side, index);
    for (const file of side.generatedFiles()) {
      const message = side.messageOf(file);
      if (message === undefined || !this.#changed.names.has(message)) continue;
      const visit = (node: ts.Node): void => {
        if ((ts.isPropertySignature(node) || ts.isPropertyAssignment(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
          const symbol = side.checker.getSymbolAtLocation(node.name);
          const type = symbol === undefined ? undefined : side.checker.getTypeOfSymbol(symbol);
          if (type !== undefined) {
            for (const t of [type, side.checker.getNonNullableType(type)]) if (distinctive(t)) index!.set(this.#keyOf(t), [...(index!.get(this.#keyOf(t)) ?? []), { message, field: node.name.text }]);
          }
        }
        node.forEachChild(visit);
      };
      visit(file);
    }
    return index;
  }

  /** Uses as the diagnostic names them: of one message type, or strongest first; each message with the fields that changed. */
  #named(all: readonly GeneratedUse[], text: string): GeneratedUse[] {
    const strong = all.filter((use) => use.shared !== true);
    const uses = strong.length > 0 ? strong : all;
    const named: GeneratedUse[] = [];
    for (const message of new Set(uses.map((use) => use.message))) {
      const fields = this.#changed.fieldsOf(message);
      if (fields === undefined) {
        named.push({ message });
        continue;
      }
      const used = [...new Set(uses.filter((use) => use.message === message && use.field !== undefined && fields.has(use.field)).map((use) => use.field!))];
      const picked = used.length > 0 ? used : quoted(text, (name) => fields.has(name));
      const only = [...fields].filter((field) => field !== 'schemaHash');
      const chosen = picked.length > 0 ? picked : only.length === 1 ? only : [];
      named.push(...(chosen.length === 0 ? [{ message }] : chosen.map((field) => ({ message, field }))));
    }
    return named;
  }
}

/**
 * A type that tells where it comes from: an object type, or a union holding a string literal or an
 * object (`'Buy' | 'Sell'`, a tuple of actions). A number, `true`, `string | undefined` could be
 * any property's, and would blame a type that has one for an error it did not cause.
 */
function distinctive(type: ts.Type): boolean {
  const members = type.isUnion() ? type.types : [type];
  return members.some((member) => (member.flags & ts.TypeFlags.Object) !== 0 || (type.isUnion() && member.isStringLiteral()));
}

/** The expressions, type nodes and declarations of `scope`, itself first, outside nested code. */
function expressionsIn(scope: ts.Node): ts.Node[] {
  const nodes: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isExpression(node) || ts.isTypeNode(node) || ts.isVariableDeclaration(node) || ts.isParameter(node)) nodes.push(node);
    for (const child of childrenOf(node)) if (!startsOtherCode(child) && !(isStatementLike(child) && child !== scope)) visit(child);
  };
  visit(scope);
  return nodes;
}

/** A node's children (`forEachChild`: no tokens, no JSDoc). */
function childrenOf(node: ts.Node): ts.Node[] {
  const children: ts.Node[] = [];
  node.forEachChild((child) => {
    children.push(child);
  });
  return children;
}

/** The parts of a consumer's declaration that its type comes from. */
function declarationParts(declaration: ts.Node): ts.Node[] {
  const jsDoc = ts.getJSDocTags(declaration).filter((tag) => ts.isJSDocTypeTag(tag) || ts.isJSDocParameterTag(tag) || ts.isJSDocReturnTag(tag) || ts.isJSDocTypedefTag(tag));
  const own = ((): ts.Node[] => {
    if (ts.isBindingElement(declaration)) {
      let root: ts.Node = declaration;
      while (ts.isBindingElement(root) || ts.isObjectBindingPattern(root) || ts.isArrayBindingPattern(root)) root = root.parent;
      return [declaration.propertyName ?? declaration.name, ...declarationParts(root)];
    }
    if (ts.isVariableDeclaration(declaration) || ts.isParameter(declaration) || ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) {
      const type = declaration.type;
      const initializer = ts.isPropertySignature(declaration) ? undefined : declaration.initializer;
      // A function's value: its signature, and an arrow's expression body (what it returns), never a block.
      const value = initializer === undefined ? [] : ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer) ? [...signatureParts(initializer), ...(ts.isBlock(initializer.body) ? [] : [initializer.body])] : [initializer];
      return [...(type === undefined ? [] : [type]), ...value];
    }
    if (ts.isTypeAliasDeclaration(declaration)) return [...(declaration.typeParameters ?? []), declaration.type];
    if (ts.isInterfaceDeclaration(declaration) || ts.isClassLike(declaration)) return [...(declaration.heritageClauses ?? []), ...(ts.isInterfaceDeclaration(declaration) ? declaration.members : [])];
    if (ts.isFunctionLike(declaration)) return signatureParts(declaration);
    if (ts.isJSDocTypedefTag(declaration) || ts.isJSDocCallbackTag(declaration)) return declaration.typeExpression === undefined ? [] : [declaration.typeExpression];
    return [];
  })();
  return [...own, ...jsDoc];
}
