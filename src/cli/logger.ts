import { isSchemaSyncError } from '../model/errors.js';
import { messageText, msg, own, type Message } from '../model/message.js';
import { terminalText } from '../text/safe-text.js';
import type { CliIo } from './io.js';

/**
 * Log lines go to stderr (stdout is for reports), always through the safe-text boundary (no raw
 * control, bidi or invisible character). They are the program's own text, never masked: outside
 * text in them (the library's warnings, reports, request URLs) was masked by the run's redactor
 * where it came in, and an error's values are masked where it is told (`cli/main.ts`).
 */
export interface Logger {
  info(text: string): void;
  warn(text: string): void;
  verbose(text: string): void;
  error(text: string): void;
  /** Machine or report output for stdout. */
  out(text: string): void;
  color: boolean;
  quiet: boolean;
}

/** A logger honouring `--quiet`, `--verbose` and colour settings. */
export function createLogger(io: CliIo, options: { quiet: boolean; verbose: boolean; color: boolean }): Logger {
  const paint = (code: string, text: string) => sgr(options.color, code, text);
  const line = (stream: NodeJS.WritableStream, text: string) => stream.write(`${text}\n`);
  return {
    color: options.color,
    quiet: options.quiet,
    info: (text) => {
      if (!options.quiet) line(io.stderr, terminalText(text));
    },
    warn: (text) => {
      if (!options.quiet) line(io.stderr, `${paint('33', 'warning')}: ${terminalText(text)}`);
    },
    verbose: (text) => {
      if (options.verbose && !options.quiet) line(io.stderr, paint('2', terminalText(text)));
    },
    error: (text) => line(io.stderr, terminalText(text)),
    out: (text) => io.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  };
}

/**
 * Whether text for `stream` (stderr unless told) is coloured: never with `--no-color` or
 * `NO_COLOR`; always with `--color`, or with `FORCE_COLOR` set to anything but `0` or `false`
 * (which turns it off); else when the stream is a terminal.
 */
export function useColor(io: CliIo, flag: boolean | undefined, stream: CliIo['stderr'] = io.stderr): boolean {
  if (flag === false) return false;
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (flag === true) return true;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return Boolean(stream.isTTY);
}

/** `text` in the SGR colour `code` (`31` red, `33` yellow, `2` dim) when `color`, else as it is. */
export function sgr(color: boolean, code: string, text: string): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** An error as the CLI reports it: a code (`USAGE` for the command line, `INTERNAL` for a bug), what happened and where, and what to do. */
export interface ErrorParts {
  code: string;
  message: string;
  hint?: string;
}

/** {@link ErrorParts} as built: what the message and hint quote from outside kept apart, to be masked. */
export interface SaidParts {
  code: string;
  message: Message;
  hint?: Message;
}

/**
 * The parts of `error`, not yet masked. A schema-sync error's message and hint are the program's
 * wording with outside values in it; an unexpected error's text (a bug's, a library's) is of
 * unknown origin, a value whole. Unexpected errors keep their stack only with `--verbose`.
 */
export function errorParts(error: unknown, verbose: boolean): SaidParts {
  if (isSchemaSyncError(error)) return { code: error.code, message: error.said.message, ...(error.said.hint ? { hint: error.said.hint } : {}) };
  const err = error instanceof Error ? error : new Error(String(error));
  const system = systemFault(err);
  if (system !== undefined) return system;
  const text = verbose && err.stack ? err.stack : `${err.name}: ${err.message}`;
  return { code: 'INTERNAL', message: msg`${text}`, hint: msg`this is a bug in schema-sync; run with --verbose and report it.` };
}

/**
 * A fault of the machine a run met where no stage expected one (an operation of the file system
 * refused: a file where a folder should be, no permission, no space, too many open files): said
 * as such, with what to do, not as a bug of schema-sync.
 */
function systemFault(error: Error): SaidParts | undefined {
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || typeof syscall !== 'string') return undefined;
  const where = typeof path === 'string' ? msg` ${path}` : msg``;
  return {
    code: 'SYSTEM',
    message: msg`the system refused to ${own(syscall)}${where}: ${own(code)}${own(SYSTEM_CODES[code] === undefined ? '' : ` (${SYSTEM_CODES[code]})`)}.`,
    hint: msg`Check that path: a file where a folder should be, permissions, free space or open files; then run again.`,
  };
}

/** What the common system error codes mean, in words. */
const SYSTEM_CODES: Readonly<Record<string, string>> = {
  ENOTDIR: 'a file stands where a folder is needed',
  EISDIR: 'a folder stands where a file is needed',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EMFILE: 'too many open files',
  EROFS: 'read-only file system',
  ELOOP: 'a symbolic link that is not followed',
};

/** The parts with every value masked by `redact`, the wording as it is. */
export function maskedParts(parts: SaidParts, redact: (text: string) => string): ErrorParts {
  return { code: parts.code, message: messageText(parts.message, redact), ...(parts.hint === undefined ? {} : { hint: messageText(parts.hint, redact) }) };
}

/** What happened and where, then `hint: what to do` on a line of its own. */
export function errorText(parts: ErrorParts): string {
  return parts.hint ? `${parts.message}\nhint: ${parts.hint}` : parts.message;
}

/**
 * The one place errors become a plain line for the terminal: `error [CODE]: what … (where)` then
 * the hint; with `color`, `error [CODE]` in bold red.
 */
export function renderError(parts: ErrorParts, color = false): string {
  return `${sgr(color, '1;31', `error [${parts.code}]`)}: ${errorText(parts)}`;
}
