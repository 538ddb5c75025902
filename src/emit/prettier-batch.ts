/**
 * Several generated files formatted in one prettier call. Prettier sets up options, plugins and
 * a parser on every call before it reads a character, which costs more than formatting a small
 * message module; joining a batch of modules into one text (a boundary comment line between
 * them) and cutting the result apart at those lines gives the bytes of formatting each file
 * alone, for a fraction of the set-up (figures in bench/README.md).
 *
 * That holds because prettier formats top-level statements and the comment lines between them
 * one by one; only what looks at the whole file differs. So a batch is formed only where nothing
 * does: options known to act statement by statement (no plugins, no pragmas, no ranges), files
 * that start with a comment or a statement (not a blank line, a `#!` line or a directive
 * prologue) and end with one line break, and the result must cut into exactly as many files.
 * Otherwise the caller formats each file alone.
 */

/** The line between two files of a batch; a file containing it is formatted alone. */
const BOUNDARY = '// @schema-sync-file-boundary';
const BOUNDARY_LINE = new RegExp(`^${BOUNDARY.replace(/[/@-]/g, '\\$&')}(?:\\r\\n|\\r|\\n)`, 'm');

/**
 * Resolved options (from `.prettierrc`, `.editorconfig`, overrides) that shape each statement on
 * its own. Any other key (plugins, `requirePragma`, `insertPragma`, `checkIgnorePragma`, ranges,
 * a cursor, or one this list does not know) keeps files apart.
 */
const PER_STATEMENT_OPTIONS = new Set([
  '$schema',
  'arrowParens',
  'bracketSameLine',
  'bracketSpacing',
  'embeddedLanguageFormatting',
  'endOfLine',
  'experimentalOperatorPosition',
  'experimentalTernaries',
  'filepath',
  'htmlWhitespaceSensitivity',
  'jsxSingleQuote',
  'objectWrap',
  'parser',
  'printWidth',
  'proseWrap',
  'quoteProps',
  'semi',
  'singleAttributePerLine',
  'singleQuote',
  'tabWidth',
  'trailingComma',
  'useTabs',
  'vueIndentScriptAndStyle',
]);

/** Parsers whose files are sequences of statements, as this module assumes. */
const STATEMENT_PARSERS = new Set(['babel', 'babel-ts', 'typescript']);

/** Whether files formatted with these (resolved, final) options may share a prettier call. */
export function canBatch(options: Readonly<Record<string, unknown>>): boolean {
  if (!STATEMENT_PARSERS.has(String(options['parser']))) return false;
  return Object.entries(options).every(([key, value]) => value === undefined || PER_STATEMENT_OPTIONS.has(key));
}

/**
 * Whether a file's text may join a batch: it starts with a comment or a statement that is not a
 * directive (a leading blank line prettier drops alone but keeps after a boundary; a `#!` line
 * is valid first only; a `'use strict'`-style string first is a directive alone and an
 * expression statement after a boundary), ends with exactly one line break (more would leave a
 * blank line before the boundary), and holds no boundary line or carriage return.
 */
export function canJoin(text: string): boolean {
  if (text.includes('\r') || text.includes(BOUNDARY) || !/\S\n$/.test(text) || /^\s/.test(text)) return false;
  const first = text[firstTokenAt(text)];
  return first !== undefined && first !== '#' && first !== "'" && first !== '"';
}

/** Where the first character after the leading comments and white space is. */
function firstTokenAt(text: string): number {
  let at = 0;
  for (;;) {
    while (at < text.length && /\s/.test(text[at]!)) at++;
    if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end + 1;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2);
      at = end === -1 ? text.length : end + 2;
    } else {
      return at;
    }
  }
}

/** The texts as one, a boundary line between each two; every text must pass {@link canJoin}. */
export function joinTexts(texts: readonly string[]): string {
  return texts.join(`${BOUNDARY}\n`);
}

/**
 * The formatted text of {@link joinTexts} cut back into `count` files, or undefined when it does
 * not cut into exactly that many, each ending with a line break.
 */
export function splitFormatted(formatted: string, count: number): string[] | undefined {
  const parts = formatted.split(BOUNDARY_LINE);
  if (parts.length !== count) return undefined;
  return parts.every((part) => /[\r\n]$/.test(part)) ? parts : undefined;
}
