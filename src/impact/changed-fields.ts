/**
 * What changed in each message type's generated declarations: the message types whose modules
 * differ between the two outputs, and, of those present in both, the properties (of the constant,
 * of its record and key types) whose declarations differ. A new error is named by one of these
 * fields; a message type added or removed changed as a whole.
 */
import { ts } from 'ts-morph';
import type { Overlay } from './overlay-host.js';
import type { Owners } from './owners.js';

/** The changed message types, and the fields that differ of each present in both outputs. */
export interface ChangedMessages {
  /** Names of the message types whose generated modules differ (added, removed or changed). */
  names: ReadonlySet<string>;
  /** Of a message type present in both outputs, its properties whose declarations differ; undefined for one added or removed. */
  fieldsOf(message: string): ReadonlySet<string> | undefined;
}

interface Side {
  program: ts.Program;
  owners: Owners;
  overlay: Overlay;
}

/** Each property declaration of a generated module, keyed by where it is (`QuoteRecord.side`), with its text. */
function propertyTexts(file: ts.SourceFile): Map<string, { field: string; text: string }> {
  const texts = new Map<string, { field: string; text: string }>();
  const visit = (node: ts.Node, path: string): void => {
    if ((ts.isPropertyAssignment(node) || ts.isPropertySignature(node)) && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) {
      texts.set(`${path}.${node.name.text}`, { field: node.name.text, text: node.getText(file) });
    }
    const name = (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node) || ts.isVariableDeclaration(node)) && ts.isIdentifier(node.name) ? node.name.text : undefined;
    node.forEachChild((child) => visit(child, name === undefined ? path : `${path}/${name}`));
  };
  visit(file, '');
  return texts;
}

/** The message types whose generated modules differ between `before` and `after`, with their changed fields. */
export function changedMessages(before: Side, after: Side): ChangedMessages {
  const names = new Set<string>();
  const files: Record<'before' | 'after', Map<string, ts.SourceFile>> = { before: new Map(), after: new Map() };
  for (const [key, side, other] of [
    ['before', before, after],
    ['after', after, before],
  ] as const) {
    for (const file of side.program.getSourceFiles()) {
      const message = side.owners.messageOf(file);
      if (message === undefined) continue;
      files[key].set(message, file);
      const path = side.owners.pathOf(file);
      if (other.overlay.get(path) !== side.overlay.get(path)) names.add(message);
    }
  }
  const fields = new Map<string, Set<string>>();
  for (const message of names) {
    const old = files.before.get(message);
    const now = files.after.get(message);
    if (old === undefined || now === undefined) continue;
    const was = propertyTexts(old);
    const is = propertyTexts(now);
    const differ = new Set<string>();
    for (const [key, entry] of was) if (is.get(key)?.text !== entry.text) differ.add(entry.field);
    for (const [key, entry] of is) if (!was.has(key)) differ.add(entry.field);
    fields.set(message, differ);
  }
  return { names, fieldsOf: (message) => fields.get(message) };
}
