/**
 * Encoders that put server-controlled text into generated source: string literals, TSDoc
 * lines and banner (line comment) values. Nothing a server sends may end a string, a comment
 * or a line early, and nothing invisible may reach the file (Trojan Source bidi controls,
 * zero-width characters, lone surrogates).
 *
 * The set of escaped characters is spelled out rather than taken from Unicode property
 * classes, so the output does not change with the Unicode version of the Node.js that runs us.
 */

/**
 * Characters that are escaped wherever server text is written: C0/C1 controls and DEL, the
 * JavaScript line terminators U+2028/U+2029, soft hyphen, bidi controls and marks, zero-width
 * and invisible characters, variation selectors, BOM, specials, tag characters and lone
 * surrogates.
 */
const UNSAFE_CHARS =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFF]|\uDB40[\uDC00-\uDDEF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What a string literal escapes besides {@link UNSAFE_CHARS}: its quote and the backslash. */
const LITERAL_SPECIALS = new RegExp(`['\\\\]|${UNSAFE_CHARS.source}`, 'g');

/** Printable ASCII without `'` and `\`: the common case, which needs no escaping at all. */
const PLAIN_LITERAL = /^[\u0020-\u0026\u0028-\u005B\u005D-\u007E]*$/;

/** Line terminators a server may send inside a description. */
const LINE_BREAKS = /\r\n|[\r\n\u0085\u2028\u2029]/;

/**
 * No backslash here: a literal writes it as `\u005C`, never `\\`. ts-morph's writer, which
 * tracks strings and comments as it prints, takes any quote after a backslash for an escaped
 * one; after `'a\\'` it would read the next literal as code, and a `/*` there as a comment that
 * it later closes by writing a comment end into the file.
 */
const SHORT_ESCAPES: ReadonlyMap<string, string> = new Map([
  ["'", "\\'"],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/** `\uXXXX` for each UTF-16 code unit of `chars` (uppercase hex, as in `\u2028`). */
function unicodeEscape(chars: string): string {
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    out += '\\u' + chars.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  }
  return out;
}

function escapeForLiteral(match: string): string {
  return SHORT_ESCAPES.get(match) ?? unicodeEscape(match);
}

/**
 * A single-quoted TypeScript string literal whose value is exactly `value`. Quotes,
 * backslashes (as `\u005C`), line terminators (including U+2028/U+2029) and invisible characters
 * are escaped, so the literal cannot end early and reads the same in every editor. `${` and
 * backticks need no escaping in a single-quoted literal.
 */
export function stringLiteral(value: string): string {
  if (PLAIN_LITERAL.test(value)) return `'${value}'`;
  return `'${value.replace(LITERAL_SPECIALS, escapeForLiteral)}'`;
}

/**
 * Text that is safe inside any comment, on one line: line terminators and invisible characters
 * are shown as `\uXXXX` (`\n`, `\r`, `\t` as such) and a star followed by a slash gets a
 * backslash between them, so it can neither end a block comment nor start a new line of code
 * after a line comment.
 */
export function commentText(value: string): string {
  return value.replace(UNSAFE_CHARS, escapeForLiteral).replaceAll('*/', '*\\/');
}

/**
 * The lines of a TSDoc comment for a server description: split at every line terminator,
 * each line made comment-safe ({@link commentText}), tabs turned into two spaces, trailing spaces
 * and leading/trailing blank lines removed (indentation is kept), and an `@` at the start of a line escaped (`\@`) so server text cannot
 * introduce TSDoc tags such as `@deprecated`.
 */
export function docLines(text: string): string[] {
  const lines = text
    .split(LINE_BREAKS)
    .map((line) => commentText(line.replaceAll('\t', '  ').trimEnd()).replace(/^(\s*)@/, '$1\\@'));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Text safe for one line of a Markdown or plain-text file: line terminators and invisible
 * characters are escaped, nothing else.
 */
export function lineText(value: string): string {
  return value.replace(UNSAFE_CHARS, escapeForLiteral);
}
