/**
 * Attributing a new diagnostic of the consumer's code to the message type (and field) whose
 * change caused it. The code at the diagnostic is read as it stood against the old output and
 * against the new one: the generated declarations it refers to, in either, name the message
 * types involved; a string literal that is a changed message's name (`MessageByName<'Quote'>`,
 * `messages['Quote']`) names it too. The search starts at the diagnostic's token and widens to
 * the expressions around it, never past the statement that holds it (nested blocks and bodies
 * are not searched), so a use elsewhere in the same function is not blamed.
 */
import { ts } from 'ts-morph';
import type { GeneratedUse, Owners } from './owners.js';

/** The innermost token of `file` that spans `position`. */
export function tokenAt(file: ts.SourceFile, position: number): ts.Node {
  let node: ts.Node = file;
  for (;;) {
    const child = node.getChildren(file).find((c) => c.getStart(file) <= position && position < c.getEnd());
    if (child === undefined) return node;
    node = child;
  }
}

/** Nodes below which other code than the one at hand begins. */
function startsOtherCode(node: ts.Node): boolean {
  return ts.isBlock(node) || ts.isCaseBlock(node) || ts.isFunctionLike(node) || ts.isClassLike(node) || ts.isModuleBlock(node);
}

function isStatementLike(node: ts.Node): boolean {
  return ts.isStatement(node) || ts.isClassElement(node) || ts.isTypeElement(node) || ts.isEnumMember(node);
}

/** The generated declarations and message names that `scope` refers to, outside nested code. */
function usesIn(scope: ts.Node, owners: readonly Owners[], changed: ReadonlySet<string>): GeneratedUse[] {
  const uses: GeneratedUse[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      for (const side of owners) {
        const use = side.useAt(node);
        if (use !== undefined) uses.push(use);
      }
    } else if (ts.isStringLiteralLike(node) && changed.has(node.text)) {
      uses.push({ message: node.text });
    }
    node.forEachChild((child) => {
      if (startsOtherCode(child) || (isStatementLike(child) && !ts.isTypeElement(scope))) return;
      visit(child);
    });
  };
  visit(scope);
  return uses.filter((use) => changed.has(use.message));
}

/** Uses of one message, those naming a field first, each message and field once. */
function distinct(uses: readonly GeneratedUse[]): GeneratedUse[] {
  const byKey = new Map<string, GeneratedUse>();
  for (const use of uses) byKey.set(`${use.message}\0${use.field ?? ''}`, use);
  const withField = new Set([...byKey.values()].filter((use) => use.field !== undefined).map((use) => use.message));
  return [...byKey.values()].filter((use) => use.field !== undefined || !withField.has(use.message));
}

/**
 * The changed message types (and fields) a diagnostic at `start` of `file` comes from; empty
 * when it cannot tell. `owners` are the old and the new program's; `changed` the names of the
 * message types whose generated code changed; `text` the diagnostic's message, searched for a
 * quoted changed name as the last resort.
 */
export function attribute(file: ts.SourceFile, start: number, text: string, owners: readonly Owners[], changed: ReadonlySet<string>): GeneratedUse[] {
  for (let node: ts.Node | undefined = tokenAt(file, start); node !== undefined && !ts.isSourceFile(node); node = node.parent) {
    const uses = usesIn(node, owners, changed);
    if (uses.length > 0) return distinct(uses);
    if (isStatementLike(node) || ts.isFunctionLike(node)) break;
  }
  const quoted = [...text.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!).filter((name) => changed.has(name));
  return distinct(quoted.map((message) => ({ message })));
}
