/**
 * The one boundary for text the server (or a listing file) chooses: one set of characters that
 * never reach a file or a terminal raw, and one encoder per destination. Names, descriptions,
 * tokens and enum values pass through here wherever they leave the program: generated code
 * (string literals and comments), every report format, errors, warnings and log lines, and the
 * lockfile.
 *
 * The set is spelled out rather than taken from Unicode property classes, so the output does not
 * change with the Unicode version of the Node.js that runs us.
 */

/**
 * Code units that are escaped wherever server text is written: C0 controls (ESC starts ANSI
 * sequences, CR/LF forge lines), DEL and C1 controls (U+009B is a one-byte CSI on some
 * terminals), the line and paragraph separators U+2028/U+2029 (JavaScript line terminators),
 * soft hyphen, bidi overrides, isolates and marks (Trojan Source), zero-width and other invisible
 * characters (U+200B–U+200F, U+2060–U+206F, Hangul fillers), variation selectors, BOM,
 * specials, tag characters and lone surrogates: what makes a name look like another, hide text
 * or break a line.
 */
const UNSAFE =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFF]|\uDB40[\uDC00-\uDDEF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text that needs no look at the unsafe set: printable ASCII and line feeds (the common case, tested fast). */
const PLAIN_TEXT = /^[\n\u0020-\u007E]*$/;

/** Whether `text` holds a character of the unsafe set. */
export function hasUnsafe(text: string): boolean {
  return text.search(UNSAFE) !== -1;
}

/** `\uXXXX` for each UTF-16 code unit of `chars`, in the hex case of the destination. */
function unicodeEscape(chars: string, upper: boolean): string {
  let out = '';
  for (let i = 0; i < chars.length; i++) {
    const hex = chars.charCodeAt(i).toString(16).padStart(4, '0');
    out += `\\u${upper ? hex.toUpperCase() : hex}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON (reports, the lockfile) and report/terminal text

/**
 * JSON text of `value` as `JSON.stringify` writes it (with `indent` spaces), plus `\uXXXX`
 * (lowercase, as JSON.stringify writes its own escapes) for every unsafe character JSON leaves
 * raw: the text reads the same and parses to the same value, but shows nothing invisible and
 * breaks no line. `String(value)` for what JSON cannot hold (undefined, a function).
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent) as string | undefined;
  return text === undefined ? String(value) : safeJson(text);
}

/**
 * JSON text that `JSON.stringify` wrote (as the lockfile's writer joins it) made
 * safe as {@link jsonText} makes it. JSON.stringify escapes C0 controls and lone surrogates
 * inside strings itself: a raw line feed is the indentation's, and every other unsafe character
 * stands inside a string, where `\uXXXX` means the same.
 */
export function safeJson(text: string): string {
  return terminalText(text);
}

/**
 * A string as a double-quoted literal that is safe to print anywhere (report, terminal, error):
 * its JSON text ({@link jsonText}). Never contains a line break.
 */
export function quoteString(text: string): string {
  return jsonText(text);
}

/**
 * A name or path as it reads best in a report or message: bare when it is plain printable text,
 * quoted with {@link quoteString} otherwise, so a server-chosen name can neither inject escape
 * sequences or lines nor pass for something else (empty, padded, or with quotes/backslashes).
 */
export function displayName(text: string): string {
  const bare = text !== '' && text.trim() === text && !/["\\]/.test(text) && !hasUnsafe(text);
  return bare ? text : quoteString(text);
}

/**
 * Server text inside a one-line message, unquoted (e.g. the `detail` a service gives with a
 * failure): every unsafe character as `\uXXXX`, line breaks included.
 */
export function inlineText(text: string): string {
  return text.replace(UNSAFE, (unit) => unicodeEscape(unit, false));
}

/**
 * Log or error text for a terminal: every unsafe character but the line feeds that separate our
 * own lines as `\uXXXX`. A last line of defence at the CLI's output streams: messages quote the
 * server's strings themselves ({@link quoteString}), so this only ever changes text that slipped by.
 */
export function terminalText(text: string): string {
  if (PLAIN_TEXT.test(text)) return text;
  return text.replace(UNSAFE, (unit) => (unit === '\n' ? unit : unicodeEscape(unit, false)));
}

// ---------------------------------------------------------------------------------------------
// Generated TypeScript: string literals and comments

/** What a string literal escapes besides the unsafe set: its quote and the backslash. */
const LITERAL_SPECIALS = new RegExp(`['\\\\]|${UNSAFE.source}`, 'g');

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

function escapeForCode(match: string): string {
  return SHORT_ESCAPES.get(match) ?? unicodeEscape(match, true);
}

/**
 * A single-quoted TypeScript string literal whose value is exactly `value`. Quotes,
 * backslashes (as `\u005C`), line terminators (including U+2028/U+2029) and invisible characters
 * are escaped (uppercase `\uXXXX`), so the literal cannot end early and reads the same in every
 * editor. `${` and backticks need no escaping in a single-quoted literal.
 */
export function stringLiteral(value: string): string {
  if (PLAIN_LITERAL.test(value)) return `'${value}'`;
  return `'${value.replace(LITERAL_SPECIALS, escapeForCode)}'`;
}

/**
 * Text that is safe inside any comment, on one line: line terminators and invisible characters
 * are shown as `\uXXXX` (`\n`, `\r`, `\t` as such) and a star followed by a slash gets a
 * backslash between them, so it can neither end a block comment nor start a new line of code
 * after a line comment.
 */
export function commentText(value: string): string {
  return value.replace(UNSAFE, escapeForCode).replaceAll('*/', '*\\/');
}

/**
 * The lines of a TSDoc comment for a server description: split at every line terminator,
 * each line made comment-safe ({@link commentText}), tabs turned into two spaces, trailing spaces
 * and leading/trailing blank lines removed (indentation is kept), and an `@` at the start of a
 * line escaped (`\@`) so server text cannot introduce TSDoc tags such as `@deprecated`.
 */
export function docLines(text: string): string[] {
  const lines = text.split(LINE_BREAKS).map((line) => commentText(line.replaceAll('\t', '  ').trimEnd()).replace(/^(\s*)@/, '$1\\@'));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Text safe for one line of a generated Markdown or plain-text file: line terminators and
 * invisible characters are escaped as in code, nothing else.
 */
export function lineText(value: string): string {
  return value.replace(UNSAFE, escapeForCode);
}
