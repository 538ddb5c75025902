/**
 * The error classes of schema-sync. Each has a stable `code` that scripts can test, and a
 * message that says what happened, where, and what to do. The CLI maps every one of them to
 * exit code 2.
 */

/** Stable error codes. */
export type ErrorCode =
  | 'CONFIG'
  | 'NETWORK'
  | 'RESPONSE'
  | 'VALIDATION'
  | 'LOCK'
  | 'REFUSED'
  | 'WRITE'
  | 'EMIT';

/** Base class: every error schema-sync throws on purpose is one of these. */
export class SchemaSyncError extends Error {
  /** A stable code for scripts, e.g. `NETWORK`. */
  readonly code: ErrorCode;
  /** What the user can do about it, printed after the message. */
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
  }
}

/** Bad configuration: flags, config file or environment. */
export class ConfigError extends SchemaSyncError {
  /** The setting a run needed and was not given (e.g. `baseUrl`), when that is what is wrong. */
  readonly setting: string | undefined;
  constructor(message: string, options: { hint?: string; cause?: unknown; setting?: string } = {}) {
    super('CONFIG', message, options);
    this.setting = options.setting;
  }
}

/** The service could not be reached, or answered with an error status. */
export class NetworkError extends SchemaSyncError {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  constructor(message: string, options: { hint?: string; cause?: unknown; status?: number } = {}) {
    super('NETWORK', message, options);
    this.status = options.status;
  }
}

/** The service answered, but not with a listing (HTML page, not JSON, failed trailer, cut short). */
export class ResponseError extends SchemaSyncError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('RESPONSE', message, options);
  }
}

/** One issue found while validating a listing element. */
export interface ValidationIssue {
  /** Index of the element in the response array. */
  index: number;
  /** The element's `name`, when it has a string one. */
  name: string | undefined;
  /** Dotted path of the offending field, e.g. `message.mNum`. */
  field: string;
  /** What was expected and what was found. */
  message: string;
}

/** Where a value is, as JavaScript writes it: `accept[0].rule`, `[2].fType` (an issue path of zod). */
export function keyPath(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('').replace(/^\./, '');
}

/** One or more listing elements are invalid; every issue is listed at once. */
export class ValidationError extends SchemaSyncError {
  readonly issues: readonly ValidationIssue[];
  constructor(message: string, issues: readonly ValidationIssue[], options: { hint?: string } = {}) {
    super('VALIDATION', message, options);
    this.issues = issues;
  }
}

/** The lockfile cannot be read or is not a schema-sync lockfile. */
export class LockError extends SchemaSyncError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('LOCK', message, options);
  }
}

/** A safety rail stopped the run (empty listing, mass removal, duplicates). */
export class RefusedError extends SchemaSyncError {
  constructor(message: string, options: { hint?: string } = {}) {
    super('REFUSED', message, options);
  }
}

/** Writing the output folder or lockfile failed, or another run holds the folder. */
export class WriteError extends SchemaSyncError {
  constructor(message: string, options: { hint?: string; cause?: unknown } = {}) {
    super('WRITE', message, options);
  }
}

/** The listing cannot be turned into TypeScript (e.g. two names map to one identifier). */
export class EmitError extends SchemaSyncError {
  constructor(message: string, options: { hint?: string } = {}) {
    super('EMIT', message, options);
  }
}

/** True for errors schema-sync raised on purpose (as opposed to bugs). */
export function isSchemaSyncError(error: unknown): error is SchemaSyncError {
  return error instanceof SchemaSyncError;
}
