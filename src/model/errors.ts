import { messageText, msg, type Message } from './message.js';

/**
 * The error classes of schema-sync. Each has a stable `code` that scripts can test, and a
 * message that says what happened, where, and what to do. The CLI maps every one of them to
 * exit code 2. Message and hint are {@link Message}s (written with `msg`), so that the run's
 * redactor masks what they quote from outside and never the program's wording.
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

/** What every error takes besides its message: what to do, and the error that caused it. */
export interface ErrorOptions {
  hint?: Message;
  cause?: unknown;
}

/** Base class: every error schema-sync throws on purpose is one of these. */
export class SchemaSyncError extends Error {
  /** A stable code for scripts, e.g. `NETWORK`. */
  readonly code: ErrorCode;
  /** What the user can do about it, printed after the message. */
  hint: string | undefined;
  /**
   * The message and hint as built, their outside values apart: what the redactor masks (its
   * values masked once the error left the library). Not enumerable: not shown when the error is.
   */
  declare said: { readonly message: Message; readonly hint: Message | undefined };

  constructor(code: ErrorCode, message: Message, options: ErrorOptions = {}) {
    super(messageText(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint === undefined ? undefined : messageText(options.hint);
    Object.defineProperty(this, 'said', { value: { message, hint: options.hint }, writable: true, enumerable: false });
  }

  /** Adds `more` to the hint (a way out the caller knows and the stage that threw did not); returns the error. */
  extendHint(more: Message): this {
    const hint = this.said.hint === undefined ? more : msg`${this.said.hint} ${more}`;
    this.said = { message: this.said.message, hint };
    this.hint = messageText(hint);
    return this;
  }
}

/** Bad configuration: flags, config file or environment. */
export class ConfigError extends SchemaSyncError {
  /** The setting a run needed and was not given (e.g. `baseUrl`), when that is what is wrong. */
  readonly setting: string | undefined;
  constructor(message: Message, options: ErrorOptions & { setting?: string } = {}) {
    super('CONFIG', message, options);
    this.setting = options.setting;
  }
}

/** The service could not be reached, or answered with an error status. */
export class NetworkError extends SchemaSyncError {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  constructor(message: Message, options: ErrorOptions & { status?: number } = {}) {
    super('NETWORK', message, options);
    this.status = options.status;
  }
}

/** The service answered, but not with a listing (HTML page, not JSON, failed trailer, cut short). */
export class ResponseError extends SchemaSyncError {
  constructor(message: Message, options: ErrorOptions = {}) {
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

/** A {@link ValidationIssue} as built: the outside values of its field path and message apart, for the redactor. */
export type SaidIssue = Omit<ValidationIssue, 'field' | 'message'> & { field: Message; message: Message };

/** One or more listing elements are invalid; every issue is listed at once. */
export class ValidationError extends SchemaSyncError {
  /** Each issue, for programs (masked with the message when the error leaves the library). */
  issues: readonly ValidationIssue[];
  /** The issues as built. */
  /** The issues as built (not enumerable, as {@link SchemaSyncError.said}). */
  declare saidIssues: readonly SaidIssue[];
  constructor(message: Message, issues: readonly SaidIssue[], options: Pick<ErrorOptions, 'hint'> = {}) {
    super('VALIDATION', message, options);
    Object.defineProperty(this, 'saidIssues', { value: issues, writable: true, enumerable: false });
    this.issues = issues.map((issue) => ({ ...issue, field: messageText(issue.field), message: messageText(issue.message) }));
  }
}

/** The lockfile cannot be read or is not a schema-sync lockfile. */
export class LockError extends SchemaSyncError {
  /** There is no lockfile where the run looked (the `lockfile` setting, or its default). */
  readonly missing: boolean;
  constructor(message: Message, options: ErrorOptions & { missing?: boolean } = {}) {
    super('LOCK', message, options);
    this.missing = options.missing ?? false;
  }
}

/** A safety rail stopped the run (empty listing, mass removal, duplicates). */
export class RefusedError extends SchemaSyncError {
  constructor(message: Message, options: Pick<ErrorOptions, 'hint'> = {}) {
    super('REFUSED', message, options);
  }
}

/** Writing the output folder or lockfile failed, or another run holds the folder. */
export class WriteError extends SchemaSyncError {
  constructor(message: Message, options: ErrorOptions = {}) {
    super('WRITE', message, options);
  }
}

/** The listing cannot be turned into TypeScript (e.g. two names map to one identifier). */
export class EmitError extends SchemaSyncError {
  constructor(message: Message, options: Pick<ErrorOptions, 'hint'> = {}) {
    super('EMIT', message, options);
  }
}

/** True for errors schema-sync raised on purpose (as opposed to bugs). */
export function isSchemaSyncError(error: unknown): error is SchemaSyncError {
  return error instanceof SchemaSyncError;
}
