/**
 * Answers that replace the normal one under a fault: error statuses, HTML pages, redirects and
 * arbitrary JSON. Bodies are fixed texts, so the same fault always gives the same bytes.
 */

import { errorAnswer, jsonAnswer, type Answer } from './answer.js';
import type { Fault } from './fault.js';

/** The faults that replace the answer instead of changing how it is delivered. */
export type ReplacingFault = Extract<Fault, { kind: 'status' | 'html' | 'redirect' | 'json' }>;

/** True for a fault whose answer replaces the normal one. */
export function isReplacingFault(fault: Fault): fault is ReplacingFault {
  return fault.kind === 'status' || fault.kind === 'html' || fault.kind === 'redirect' || fault.kind === 'json';
}

/** The answer a replacing fault gives. */
export function faultAnswer(fault: ReplacingFault): Answer {
  switch (fault.kind) {
    case 'status':
      return statusAnswer(fault);
    case 'html':
      return htmlAnswer(fault.status ?? 200, fault.body ?? loginPage());
    case 'redirect':
      return {
        status: fault.status ?? 302,
        headers: { location: fault.location, 'content-type': 'text/plain' },
        body: Buffer.from(`Redirecting to ${fault.location}`, 'utf8'),
      };
    case 'json':
      return jsonAnswer(fault.status ?? 200, fault.body);
  }
}

function statusAnswer(fault: Extract<Fault, { kind: 'status' }>): Answer {
  const base =
    fault.body === undefined
      ? errorAnswer(fault.status)
      : {
          status: fault.status,
          headers: { 'content-type': fault.contentType ?? guessContentType(fault.body) },
          body: Buffer.from(fault.body, 'utf8'),
        };
  const headers = { ...base.headers };
  if (fault.contentType !== undefined) headers['content-type'] = fault.contentType;
  if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
  // Given headers last, lower-cased, so they can override anything above.
  for (const [name, value] of Object.entries(fault.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: fault.status, headers, body: base.body };
}

function guessContentType(body: string): string {
  try {
    JSON.parse(body);
    return 'application/json';
  } catch {
    return 'text/plain';
  }
}

function htmlAnswer(status: number, html: string): Answer {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(html, 'utf8') };
}

/**
 * A single-sign-on login page of the kind a proxy in front of the service returns with a 200
 * when a session has expired: the classic way a client mistakes HTML for a listing.
 */
export function loginPage(): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    '  <title>Sign in - Corporate SSO</title>',
    '  <link rel="stylesheet" href="/sso/static/login.css">',
    '</head>',
    '<body class="login">',
    '  <main>',
    '    <h1>Sign in to continue</h1>',
    '    <p>Your session has expired. Please sign in again.</p>',
    '    <form method="post" action="/sso/login">',
    '      <input type="hidden" name="returnTo" value="/rest/proto">',
    '      <label>User name <input type="text" name="username" autocomplete="username"></label>',
    '      <label>Password <input type="password" name="password" autocomplete="current-password"></label>',
    '      <button type="submit">Sign in</button>',
    '    </form>',
    '    <footer>Request id 0000-0000-0000</footer>',
    '  </main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
