import { createRedactor, type Redactor } from '../model/redact.js';
import { setOwn } from '../model/descriptor.js';

/**
 * Shortest secret looked for inside listing data: a one-letter "key" would otherwise turn every
 * `K` of the listing into `***`. Error texts are still redacted for secrets of any length.
 */
export const MIN_ECHOED_SECRET_LENGTH = 6;

/** The redactor for listing data: the run's secrets long enough to recognise; undefined when none. */
export function echoRedactor(secrets: ReadonlyArray<string | undefined>): Redactor | undefined {
  const long = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_ECHOED_SECRET_LENGTH);
  return long.length === 0 ? undefined : createRedactor(long);
}

/**
 * Servers echo the API key back, also inside a successful listing (a `desc` that quotes the
 * request, a `pkey` that holds it). Whatever is kept from a listing ends up in the lockfile and
 * the generated code, so the run's secrets are replaced (by `***`) in every string and key of
 * the parsed body before it is validated. Returns the indexes of the top-level elements that
 * held one (or `[-1]` for a body that is not an array).
 */
export function scrubSecrets(body: unknown, redact: Redactor): { body: unknown; elements: number[] } {
  const elements: number[] = [];
  if (Array.isArray(body)) {
    const scrubbed = body.map((element: unknown, index) => {
      const result = scrub(element, redact);
      if (result.found) elements.push(index);
      return result.value;
    });
    return { body: scrubbed, elements };
  }
  const result = scrub(body, redact);
  return { body: result.value, elements: result.found ? [-1] : [] };
}

function scrub(value: unknown, redact: Redactor): { value: unknown; found: boolean } {
  if (typeof value === 'string') {
    const clean = redact(value);
    return { value: clean, found: clean !== value };
  }
  if (Array.isArray(value)) {
    let found = false;
    const items = value.map((item: unknown) => {
      const result = scrub(item, redact);
      found ||= result.found;
      return result.value;
    });
    return { value: items, found };
  }
  if (value !== null && typeof value === 'object') {
    let found = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleanKey = redact(key);
      const result = scrub(item, redact);
      found ||= result.found || cleanKey !== key;
      // defineProperty: a key called `__proto__` must stay an own data property.
      setOwn(out, cleanKey, result.value);
    }
    return { value: out, found };
  }
  return { value, found: false };
}
