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

/**
 * Replaces `secrets` in every encoding: recognisable ones anywhere, shorter ones where they stand
 * alone. The text is decoded first ({@link decodedView}: percent-encoding, HTML entities and JSON
 * escapes, of any character, mixed as they come), the secrets are looked for in what it says, and
 * what they were written as is masked; base64 is matched as the secret's windows at each of the
 * three alignments it can take inside a longer base64 text ({@link base64Windows}), so HTTP Basic's
 * `user:key` and the base64 of a JSON text holding the key are masked too.
 */
function masker(secrets: readonly string[]): (text: string) => string {
  const unique = [...new Set(secrets)];
  if (unique.length === 0) return (text) => text;
  const alone = (source: string) => `(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`;
  // A form writes a space as `+`: a `+` the text holds stands for either.
  const literal = (secret: string) => regexText(secret).replaceAll(' ', '[ +]');
  const needles = unique.flatMap((secret) =>
    secret.length >= RECOGNISABLE_SECRET_LENGTH ? [literal(secret), ...base64Windows(secret).map(regexText)].map((source) => ({ source, length: source.length })) : [{ source: alone(literal(secret)), length: secret.length }],
  );
  // Longest first, so a secret that contains another is replaced whole.
  needles.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(needles.map((needle) => needle.source).join('|'), 'gu');
  return (text) => {
    const view = decodedView(text);
    if (view === undefined) return text.replace(pattern, REDACTED);
    let out = '';
    let from = 0;
    for (const match of view.text.matchAll(pattern)) {
      const start = view.starts[match.index]!;
      const end = view.starts[match.index + match[0].length]!;
      if (start < from) continue;
      out += text.slice(from, start) + REDACTED;
      from = end;
    }
    return from === 0 && out === '' ? text : out + text.slice(from);
  };
}

/** What a text says with its escapes decoded, and where each of its UTF-16 units starts in the text (one more entry: the text's end). */
interface DecodedView {
  text: string;
  starts: number[];
}

/** An escape this decoder reads: percent-encoding, an HTML entity (numeric or one of the five named), a JSON escape. */
const ESCAPE = /%[0-9A-Fa-f]{2}|&#[0-9]{1,7};|&#[xX][0-9A-Fa-f]{1,6};|&(?:amp|lt|gt|quot|apos);|\\u[0-9A-Fa-f]{4}|\\["\\/bfnrt]/g;

const NAMED: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" };
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The text with every escape it holds decoded, each character mapped back to the span it was
 * written as; undefined when it holds none (the common case: matched as it is). A run of
 * percent-encoded bytes is decoded as UTF-8, a character of several bytes spanning them all.
 */
function decodedView(text: string): DecodedView | undefined {
  if (!/[%&\\]/.test(text)) return undefined;
  let decoded = '';
  const starts: number[] = [];
  let at = 0;
  const plain = (end: number) => {
    for (; at < end; at++) {
      decoded += text[at];
      starts.push(at);
    }
  };
  const bytes: Array<{ byte: number; start: number }> = [];
  const flushBytes = () => {
    let i = 0;
    while (i < bytes.length) {
      const lead = bytes[i]!.byte;
      const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
      const group = size === 0 ? [] : bytes.slice(i, i + size);
      const char = group.length === size && size > 0 ? Buffer.from(group.map((b) => b.byte)).toString('utf8') : '\uFFFD';
      if (char === '\uFFFD' || size === 0) {
        // Not UTF-8: the escape stands for itself.
        decoded += text.slice(bytes[i]!.start, bytes[i]!.start + 3);
        for (let k = 0; k < 3; k++) starts.push(bytes[i]!.start + k);
        i++;
        continue;
      }
      for (let unit = 0; unit < char.length; unit++) starts.push(bytes[i]!.start);
      decoded += char;
      i += size;
    }
    bytes.length = 0;
  };
  for (const match of text.matchAll(ESCAPE)) {
    const escape = match[0];
    if (escape[0] !== '%' || match.index !== at) flushBytes();
    plain(match.index);
    if (escape[0] === '%') {
      bytes.push({ byte: parseInt(escape.slice(1), 16), start: match.index });
      at = match.index + 3;
      continue;
    }
    const char =
      escape[0] === '&'
        ? (NAMED[escape] ?? codePoint(escape[2] === 'x' || escape[2] === 'X' ? parseInt(escape.slice(3, -1), 16) : parseInt(escape.slice(2, -1), 10)))
        : escape[1] === 'u'
          ? String.fromCharCode(parseInt(escape.slice(2), 16))
          : JSON_SHORT[escape[1]!]!;
    for (let unit = 0; unit < char.length; unit++) starts.push(match.index);
    decoded += char;
    at = match.index + escape.length;
  }
  flushBytes();
  plain(text.length);
  starts.push(text.length);
  return { text: decoded, starts };
}

/** The character of a code point an entity names; one that names none decodes to U+FFFD (it matches no secret). */
function codePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
}

/**
 * The base64 texts (standard and URL-safe) that a longer base64 text holding the secret's bytes
 * contains, whatever bytes come before it: at each of the three alignments, the characters made
 * of the secret's bits alone, and the same ending as the secret's own base64 ends when the text
 * ends with it (its last bits padded with zeros).
 */
function base64Windows(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const windows = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    // Character i holds bits 6i to 6i + 6; the secret's are bits 8 × offset to 8 × (offset + length).
    const first = Math.ceil((8 * offset) / 6);
    const last = Math.floor((8 * (offset + bytes.length)) / 6);
    const window = encoded.slice(first, last);
    for (const text of [window, encoded.slice(first)]) {
      if (text.length < RECOGNISABLE_SECRET_LENGTH) continue;
      windows.add(text);
      windows.add(text.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...windows];
}

/** `text` as a regular expression that matches it literally. */
function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
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
