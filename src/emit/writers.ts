/**
 * Writer functions and trivia shared by the generated files, for the initializers and spacing
 * ts-morph's own writers (`Writers.object`, `Writers.assertion`) do not cover. ts-morph is only
 * referenced as types here.
 */
import type { StatementStructures, WriterFunction } from 'ts-morph';

/** Leading trivia for a blank line before a statement (one, however often asked for). */
export const blankLine: WriterFunction = (writer) => {
  writer.blankLineIfLastNot();
};

/** Arrays up to this long (`[` to `]`) are written on one line, longer ones one element a line. */
const MAX_INLINE_ARRAY = 72;

/** An array literal of elements that are already expressions, e.g. string literals. */
export function arrayLiteral(elements: readonly string[]): WriterFunction {
  return (writer) => {
    const inline = elements.join(', ');
    if (inline.length + 2 <= MAX_INLINE_ARRAY) {
      writer.write(`[${inline}]`);
      return;
    }
    // As `Writers.object` writes its properties: indented, a comma after all but the last.
    writer.write('[');
    writer.indent(() => {
      elements.forEach((element, i) => {
        if (i > 0) writer.write(',').newLine();
        writer.write(element);
      });
      writer.newLine();
    });
    writer.write(']');
  };
}

/** `<expression> satisfies <type>`. */
export function satisfiesType(expression: WriterFunction, type: string): WriterFunction {
  return (writer) => {
    expression(writer);
    writer.write(` satisfies ${type}`);
  };
}

/**
 * A file's statements with the banner, and a blank line after it, as the leading trivia of the
 * first one; statements as given when the banner is empty.
 */
export function withBanner(banner: string, statements: readonly StatementStructures[]): StatementStructures[] {
  const [first, ...rest] = statements;
  return banner === '' || first === undefined ? [...statements] : [{ ...first, leadingTrivia: [banner, blankLine] }, ...rest];
}
