/**
 * Secret redaction. Servers echo API keys back in error bodies, and URLs carry them as query
 * parameters, so every text that may reach a user passes through a redactor built from the
 * secrets of the run.
 */

/** The placeholder a secret is replaced with. */
const REDACTED = '***';

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
 * The run's redactor, built once from its secrets: called on a text that may reach a person or a
 * file (a log line, an error, a URL), it replaces every secret and its encoded forms by `***`.
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

/** Replaces `secrets` and their URL- and JSON-encoded forms: recognisable ones anywhere, shorter ones where they stand alone. */
function masker(secrets: readonly string[]): (text: string) => string {
  const variants = new Map<string, boolean>();
  for (const secret of secrets) {
    const anywhere = secret.length >= RECOGNISABLE_SECRET_LENGTH;
    for (const variant of [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]) {
      variants.set(variant, (variants.get(variant) ?? false) || anywhere);
    }
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...variants.keys()].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  const escape = (variant: string) => variant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alone = (variant: string) => `(?<![\\p{L}\\p{N}])${escape(variant)}(?![\\p{L}\\p{N}])`;
  const pattern = new RegExp(ordered.map((variant) => (variants.get(variant) ? escape(variant) : alone(variant))).join('|'), 'gu');
  return (text) => text.replace(pattern, REDACTED);
}

/**
 * Redacts an error in place (message, hint, stack, and a validation error's issues) and returns
 * it: the last line of defence for errors the library API throws, whatever stage raised them.
 */
export function redactError(error: unknown, redact: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  error.message = redact(error.message);
  if (error.stack) error.stack = redact(error.stack);
  const fields = error as unknown as { hint?: unknown; issues?: unknown };
  if (typeof fields.hint === 'string') fields.hint = redact(fields.hint);
  // A ValidationError's issues repeat element names and values for programs: output too.
  if (Array.isArray(fields.issues)) {
    fields.issues = fields.issues.map((issue: { index: number; name?: string; field: string; message: string }) => ({
      index: issue.index,
      name: issue.name === undefined ? undefined : redact(issue.name),
      field: redact(issue.field),
      message: redact(issue.message),
    }));
  }
  return error;
}
