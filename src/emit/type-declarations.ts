/**
 * Type declarations written through a `CodeBlockWriter`: exported type aliases and interfaces,
 * each after its TSDoc, laid out as ts-morph's printer lays them out (the index and `types.ts`
 * were printed from structures before, and their bytes are kept).
 */
import type { CodeBlockWriter } from 'ts-morph';

import { docComment, writeDocs, writeLines } from './writers.js';

/** An exported type alias: `export type <name><typeParameters> = <type>;`. */
export interface TypeAlias {
  name: string;
  /** TSDoc lines, already comment-safe. */
  docs: readonly string[];
  /** E.g. `N extends MessageName`; none: not generic. */
  typeParameters?: readonly string[];
  type: string;
}

/** Writes an exported type alias after its TSDoc, on one line. */
export function writeTypeAlias(writer: CodeBlockWriter, alias: TypeAlias): void {
  writeDocs(writer, alias.docs);
  const parameters = alias.typeParameters === undefined ? '' : `<${alias.typeParameters.join(', ')}>`;
  writer.writeLine(`export type ${alias.name}${parameters} = ${alias.type};`);
}

/** A property of an interface: `<readonly ><name><?>: <type>;`. */
export interface PropertySignature {
  /** Already a valid property name (quoted or computed where it must be). */
  name: string;
  type: string;
  /** TSDoc lines, already comment-safe; none: no comment. */
  docs?: readonly string[];
  readonly?: boolean;
  optional?: boolean;
}

/** An exported interface. */
export interface InterfaceDeclaration {
  name: string;
  /** TSDoc lines, already comment-safe. */
  docs: readonly string[];
  /** The interface it extends, if any. */
  extends?: string;
  properties: readonly PropertySignature[];
}

/** A property of an interface on one line, without its TSDoc: `<readonly ><name><?>: <type>;`. */
export function memberLine(property: PropertySignature): string {
  return `${property.readonly === true ? 'readonly ' : ''}${property.name}${property.optional === true ? '?' : ''}: ${property.type};`;
}

/**
 * Writes an exported interface after its TSDoc, as a block with one property per line (each
 * after its own TSDoc); `{}` without properties. The members are written in one call: see
 * `writeLines`.
 */
export function writeInterface(writer: CodeBlockWriter, declaration: InterfaceDeclaration): void {
  const { properties } = declaration;
  writeInterfaceBlock(writer, declaration, properties.length === 0 ? undefined : () => {
    const lines: string[] = [];
    for (const property of properties) {
      if (property.docs !== undefined) lines.push(...docComment(property.docs));
      lines.push(memberLine(property));
    }
    writeLines(writer, lines);
  });
}

/**
 * Writes an exported interface after its TSDoc: `{}` without members (`writeMembers` not given),
 * else a block whose members `writeMembers` writes.
 */
export function writeInterfaceBlock(writer: CodeBlockWriter, declaration: Omit<InterfaceDeclaration, 'properties'>, writeMembers: (() => void) | undefined): void {
  writeDocs(writer, declaration.docs);
  writer.write(`export interface ${declaration.name} ${declaration.extends === undefined ? '' : `extends ${declaration.extends} `}`);
  if (writeMembers === undefined) {
    writer.write('{}').newLine();
    return;
  }
  writer.inlineBlock(writeMembers);
  writer.newLine();
}
