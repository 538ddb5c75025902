import { ResponseError } from '../model/errors.js';
import type { Redactor } from '../model/redact.js';

/** A short, single-line, redacted excerpt of a body for error messages. */
export function excerpt(body: string, redact: Redactor, max = 160): string {
  const flat = redact(body).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Parses a body that should be a JSON array. Servers answer errors with HTML pages, sometimes
 * with status 200 (login pages, proxies), so an HTML or non-JSON body is named for what it is.
 */
export function interpretBody(body: string, contentType: string, origin: string, redact: Redactor): unknown {
  const trimmed = body.replace(/^\uFEFF/, '').trimStart();
  const looksHtml = contentType.includes('html') || /^<(!doctype|html|head|body|\?xml)/i.test(trimmed);
  if (looksHtml || trimmed.startsWith('<')) {
    throw new ResponseError(`${origin}: expected a JSON array, got ${contentType || 'text/html'}: ${excerpt(trimmed, redact)}`, {
      hint: 'The URL answered with a web page, not the service: check --base-url, and whether a proxy or login page is in the way.',
    });
  }
  if (trimmed === '') {
    throw new ResponseError(`${origin}: expected a JSON array, got an empty body.`, {
      hint: 'Check --base-url and try again; the service sent nothing.',
    });
  }
  try {
    return JSON.parse(trimmed);
  } catch (error) {
    throw new ResponseError(
      `${origin}: expected a JSON array, got ${contentType || 'a body'} that is not JSON (${(error as Error).message}): ${excerpt(trimmed, redact)}`,
      { hint: 'Check --base-url; the answer did not come from the schema listing service, or was cut off.' },
    );
  }
}
