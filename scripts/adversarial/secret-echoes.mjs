// What part 5 throws at the CLI: the encodings a server may echo a secret in, and where in its
// answer it puts the echo. src/model/redact.ts must know every one of these encodings; the leak
// search looks for every one of them in every output.
import { errorAnswer, jsonAnswer, textAnswer } from '../../dist/server/answer.js';
import { syntheticElement } from '../../test/helpers/folder-states.mjs';

const hex = (char) => char.codePointAt(0).toString(16).padStart(2, '0');
const plain = (char) => /[A-Za-z0-9]/.test(char);
/** Each character that is not an ASCII letter or digit written by `encode`. */
const each = (encode) => (secret) => [...secret].map((char) => (plain(char) ? char : encode(char))).join('');
const HTML = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The encodings a secret is echoed in: [name, encode]. */
export const ENCODINGS = [
  ['plain', (s) => s],
  ['percent-encoded, upper-case hex (every character)', each((c) => `%${hex(c).toUpperCase()}`)],
  ['percent-encoded, lower-case hex (every character)', each((c) => `%${hex(c)}`)],
  ['encodeURIComponent', (s) => encodeURIComponent(s)],
  ['encodeURIComponent, lower-case hex', (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())],
  ["percent-encoded keeping '/' (encodeURI, paths)", (s) => encodeURIComponent(s).replaceAll('%2F', '/')],
  ['form-encoded (URLSearchParams, space as +)', (s) => new URLSearchParams({ k: s }).toString().slice(2)],
  ['HTML-escaped (named entities)', (s) => [...s].map((c) => HTML[c] ?? c).join('')],
  ['HTML numeric entities (decimal)', each((c) => `&#${c.codePointAt(0)};`)],
  ['HTML numeric entities (hex)', each((c) => `&#x${hex(c)};`)],
  ['JSON-escaped', (s) => JSON.stringify(s).slice(1, -1).replaceAll('/', '\\/')],
  ['JSON \\u escapes (every character)', each((c) => `\\u${hex(c).padStart(4, '0')}`)],
  ['base64', (s) => Buffer.from(s).toString('base64')],
  ['base64url', (s) => Buffer.from(s).toString('base64url')],
];

/** Every encoded form of `secret`, to look for in outputs. */
export function everyForm(secret) {
  return [...new Set(ENCODINGS.map(([, encode]) => encode(secret)))];
}

/**
 * The credential pairs: one with the characters encodings write differently (and a space), one of
 * letters and digits only, at the shortest lengths that SECURITY.md promises to scrub anywhere
 * (so also run together with letters).
 */
export const CREDENTIALS = [
  { key: 'k+y/Ab&c9<Q>x', secret: `shh "SECRET"/1f 2e'd` },
  { key: 'Ab3dE7g', secret: 'Zq9xW2' },
];

/** Keys and secrets that are ordinary words, which the CLI's own wording holds. */
export const WORD_CREDENTIALS = [
  { key: 'types', secret: 'changes' },
  { key: 'schema', secret: 'lockfile' },
  { key: 'pulled', secret: 'message' },
];

const element = (extra) => syntheticElement(50, 0, { name: 'Echo', ...extra });

/**
 * Where the server puts an echo: [name, kind, how], `how(key, secret, phase, prefix)` giving an
 * element to add to the listing (`echo`), a `trailer`, `headers` to add, or an `answer` that
 * replaces the server's; `phase` is 'pull' or 'check' (a second answer, for a report of
 * changes), `prefix` the case's path on the server. A 'data' echo is in a listing the run
 * accepts, an 'error' echo in an answer it refuses; a 'name' echo makes an element name invalid
 * unless the credentials are letters and digits only.
 */
export const LOCATIONS = [
  ['a desc, standing alone', 'data', (k, s, phase) => ({ echo: element({ desc: `${phase === 'check' ? 'now ' : ''}requested with apikey=${k}&secret=${s} thanks` }) })],
  ['a desc, run together with letters', 'data', (k, s, phase) => ({ echo: element({ desc: `${phase === 'check' ? 'now' : ''}x${k}y${s}z` }) })],
  ['mToken and topic fields', 'data', (k, s, phase) => ({ echo: element({ mToken: `${phase === 'check' ? 'n' : ''}${k}`, topic: `t${s}` }) })],
  ['response headers', 'data', (k, s) => ({ headers: { 'x-echo': k, 'www-authenticate': `Bearer realm="${s}"` } })],
  ['an element name', 'name', (k, s) => ({ echo: element({ name: `Echo_${k}_${s}` }) })],
  ['a 401 JSON body', 'error', (k, s) => ({ answer: errorAnswer(401, `invalid apikey ${k} secret ${s}`) })],
  ['a 500 text body', 'error', (k, s) => ({ answer: textAnswer(500, { 'content-type': 'text/plain' }, `internal error for apikey=${k}&secret=${s}`) })],
  ['a 500 HTML page', 'error', (k, s) => ({ answer: textAnswer(500, { 'content-type': 'text/html' }, `<html><body><p>key ${k}</p><p>secret ${s}</p></body></html>`) })],
  ['a 200 that is not JSON', 'error', (k, s) => ({ answer: textAnswer(200, { 'content-type': 'text/plain' }, `oops ${k} ${s}`) })],
  ['a JSON object, not an array', 'error', (k, s) => ({ answer: jsonAnswer(200, { apikey: k, secret: s }) })],
  ['a failed trailer detail', 'error', (k, s) => ({ trailer: { result: 'Error', detail: `bad apikey ${k} / ${s}` } })],
  ['a redirect loop through a Location', 'error', (k, s, _phase, prefix) => ({ answer: textAnswer(302, { location: `${prefix}/rest/proto?apikey=${k}&secret=${s}` }, '') })],
];
