import { SchemaSyncError, ValidationError } from './errors.js';
import { messageText, type Message } from './message.js';

/**
 * Secret redaction. Servers echo API keys back, in error bodies, in listings, in any encoding, so
 * text that comes from outside passes through the run's one redactor, built from its secrets,
 * where it comes in: the answer, the network stack's messages, warnings, the values a report
 * quotes, errors. The program's own wording never does: masking a key that is a word (`types`)
 * in it would show the key.
 */

/** The placeholder a secret is replaced with. */
export const REDACTED = '***';

/**
 * The one length policy (SECURITY.md): from this length on a secret is recognisable. It is then
 * masked wherever it occurs, also run together with letters or digits (an echo such as
 * `key:abc…` without a space, a hex dump) and inside the data a server sends (a listing's
 * strings): no ordinary word holds a credential that long. A shorter one is masked in texts only
 * where it stands on its own (a one-letter key must not turn "Breaking" into "Brea***ing"), and
 * never in data (it would mangle the listing).
 */
export const RECOGNISABLE_SECRET_LENGTH = 6;

/**
 * The run's redactor, built once from its secrets: called on outside text that may reach a person
 * or a file (a server's text, an error, a warning), it replaces every secret and its encoded
 * forms by `***`.
 */
export interface Redactor {
  (text: string): string;
  /**
   * The same masking for data a server sent (a listing's strings and keys): only the recognisable
   * secrets ({@link RECOGNISABLE_SECRET_LENGTH}); undefined when the run has none.
   */
  readonly data: ((text: string) => string) | undefined;
}

/**
 * Builds the redactor of one run's secrets (see {@link RECOGNISABLE_SECRET_LENGTH} for where
 * each is masked); empty or missing secrets are ignored.
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const given = secrets.filter((secret): secret is string => typeof secret === 'string' && secret !== '');
  const recognisable = given.filter((secret) => secret.length >= RECOGNISABLE_SECRET_LENGTH);
  const text = masker(given);
  return Object.assign((value: string) => text(value), { data: recognisable.length === 0 ? undefined : masker(recognisable) });
}

/** Replaces `secrets` in every encoding ({@link secretPattern}): recognisable ones anywhere, shorter ones where they stand alone. */
function masker(secrets: readonly string[]): (text: string) => string {
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  const alone = (source: string) => `(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`;
  const pattern = new RegExp(ordered.map((secret) => (secret.length >= RECOGNISABLE_SECRET_LENGTH ? secretPattern(secret) : alone(secretPattern(secret)))).join('|'), 'gu');
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * A regular expression for every common way a secret is written back: each character that is
 * not an ASCII letter or digit as it is, percent-encoded (`encodeURIComponent`, a form's `+` for
 * a space, or left as it is as `encodeURI` and paths leave `/`), HTML-escaped (`&amp;`, `&lt;`,
 * `&gt;`, `&quot;`, `&apos;`, or a numeric entity, `&#43;` or `&#x2b;`), or JSON-escaped (`\"`,
 * `\\`, `\/`, `\u002b`), each character in its own way; the hex digits of an escape in either
 * case. A recognisable secret also as its base64 (standard or URL-safe, without padding): an echo
 * of it in a token or header.
 */
function secretPattern(secret: string): string {
  const source = [...secret].map((char) => (/[A-Za-z0-9]/.test(char) ? char : `(?:${charForms(char).join('|')})`)).join('');
  if (secret.length < RECOGNISABLE_SECRET_LENGTH) return source;
  const base64 = Buffer.from(secret, 'utf8').toString('base64').replace(/=+$/, '');
  return [source, regexText(base64), regexText(base64.replaceAll('+', '-').replaceAll('/', '_'))].join('|');
}

/** The HTML entities with names, of the characters that are escaped in HTML text and attributes. */
const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = { '&': ['&amp;'], '<': ['&lt;'], '>': ['&gt;'], '"': ['&quot;'], "'": ['&apos;'] };

/** The ways one character of a secret is written back, as regular expressions. */
function charForms(char: string): string[] {
  const code = char.codePointAt(0)!;
  const hex = code.toString(16);
  const utf16 = [...Array(char.length).keys()].map((i) => char.charCodeAt(i).toString(16).padStart(4, '0'));
  return [
    regexText(char),
    // Also the characters encodeURIComponent leaves (`'`, `!`, `~` …), which stricter encoders
    // encode; a lone surrogate has no percent-encoding (encodeURIComponent throws on it).
    ...(code < 0x80 ? [`%${caselessHex(hex.padStart(2, '0'))}`] : /^[\uD800-\uDFFF]$/.test(char) ? [] : [caselessHex(encodeURIComponent(char))]),
    ...(char === ' ' ? ['\\+'] : []),
    ...(NAMED_ENTITIES[char] ?? []).map(regexText),
    `&#0*${code};`,
    `&#[xX]0*${caselessHex(hex)};`,
    ...(/["\\/]/.test(char) ? [regexText(`\\${char}`)] : []),
    utf16.map((unit) => `\\\\u${caselessHex(unit)}`).join(''),
  ];
}

/** `text` as a regular expression that matches it literally. */
function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Hex digits (in an escape such as `%2F`) as a regular expression that matches them in either case. */
function caselessHex(text: string): string {
  return text.replace(/[A-Fa-f]/g, (digit) => `[${digit.toUpperCase()}${digit.toLowerCase()}]`);
}

/**
 * Redacts an error in place and returns it: the last line of defence for errors the library API
 * throws, whatever stage raised them. Of a schema-sync error only what its message, hint and
 * issues quote from outside is masked (they are {@link Message}s), never the program's wording; any
 * other error is text of unknown origin (a library's, a bug's) and is masked whole. The stack's
 * frames are masked too (paths on this machine). Masking again masks nothing more.
 */
export function redactError(error: unknown, redact: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  const head = `${error.name}: ${error.message}`;
  const frames = error.stack?.startsWith(head) ? error.stack.slice(head.length) : undefined;
  // The values are masked where they are kept, so that nothing of the error holds a secret.
  const masked = (message: Message): Message => ({ template: message.template, values: message.values.map(redact) });
  if (error instanceof SchemaSyncError) {
    error.said = { message: masked(error.said.message), hint: error.said.hint === undefined ? undefined : masked(error.said.hint) };
    error.message = messageText(error.said.message);
    error.hint = error.said.hint === undefined ? undefined : messageText(error.said.hint);
  } else {
    error.message = redact(error.message);
  }
  // A ValidationError's issues repeat element names and values for programs: output too.
  if (error instanceof ValidationError) {
    error.saidIssues = error.saidIssues.map((issue) => ({
      index: issue.index,
      name: issue.name === undefined ? undefined : redact(issue.name),
      field: masked(issue.field),
      message: masked(issue.message),
    }));
    error.issues = error.saidIssues.map((issue) => ({ ...issue, field: messageText(issue.field), message: messageText(issue.message) }));
  }
  if (error.stack) error.stack = frames === undefined ? redact(error.stack) : `${error.name}: ${error.message}${redact(frames)}`;
  return error;
}

/**
 * `value` (plain JSON data: a listing element, a report value) with `redact` applied to every
 * string in it, keys included, but for the keys in `keep` (the program's own vocabulary, e.g. the
 * wire format's field names, which a key such as `schema` would turn into `***Hash`). Keys
 * become own properties, also `__proto__`.
 */
export function redactDeep(value: unknown, redact: (text: string) => string, keep: ReadonlySet<string> = new Set()): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact, keep));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [keep.has(key) ? key : redact(key), redactDeep(item, redact, keep)]));
}
