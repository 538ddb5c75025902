/**
 * Secret redaction. Servers echo API keys back in error bodies, and URLs carry them as query
 * parameters, so every text that may reach a user passes through a redactor built from the
 * secrets of the run.
 */

/** The placeholder a secret is replaced with. */
const REDACTED = '***';

/** Replaces the given secrets (and their encoded forms) wherever they stand as a token of a text. */
export type Redactor = (text: string) => string;

/**
 * From this length on a secret is replaced wherever it occurs, also run together with letters or
 * digits (an echo such as `key:abc…` without a space, a hex dump): no ordinary word holds a
 * credential that long. A shorter one is replaced only where it stands on its own.
 */
const MASKED_ANYWHERE = 8;

/**
 * Builds a redactor for the secrets of one run; empty or missing secrets are ignored. A short
 * secret is replaced where it stands on its own, not where it is only part of a longer word or
 * token (a one-letter key must not turn "Breaking" into "Brea***ing"); one of
 * {@link MASKED_ANYWHERE} characters or more wherever it occurs.
 */
export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    variants.add(secret);
    variants.add(encodeURIComponent(secret));
    variants.add(new URLSearchParams({ s: secret }).toString().slice(2));
    variants.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...variants].filter((v) => v.length > 0).sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  const escape = (variant: string) => variant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const alone = (variant: string) => `(?<![\\p{L}\\p{N}])${escape(variant)}(?![\\p{L}\\p{N}])`;
  const pattern = new RegExp(ordered.map((variant) => (variant.length >= MASKED_ANYWHERE ? escape(variant) : alone(variant))).join('|'), 'gu');
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
