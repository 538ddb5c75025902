/**
 * The text templates of the generated output: `banner.txt` (the comment at the top of every
 * generated `.ts` file) and `package-readme.md` (the README of `--package`).
 *
 * Syntax: `{{variable}}` is replaced by the variable's value. A line that uses a variable
 * without a value in the file at hand is left out: e.g. `// Schema hash: {{schemaHash}}` appears
 * only in message files, and a README line holding `{{jsTarget}}` (empty for the `js+dts` target,
 * unset for `ts`) only in a `js+dts` package's README. The service's URL is not among the banner's variables: generated code
 * never depends on how the URL was spelled (the lockfile records the source).
 * An unknown variable is an error, so a typo does not silently print nothing. Because lines
 * are dropped whole, a banner is best written as line comments (`// …`): in a block comment, a
 * dropped first or last line would leave the comment unclosed or unopened.
 *
 * Values are made safe for their place before they are substituted (one line, no comment end),
 * so a template line can never be split or closed early by server or config text.
 *
 * A template is outside text too: it is read only as a regular file (no symbolic link, device,
 * FIFO or folder, at most `READ_BOUNDS.template`), its characters pass the safe-text boundary
 * (a control, bidi or invisible character is written as `\uXXXX`, tabs kept), and the run's
 * redactor masks any secret in it.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { msg, own } from '../model/message.js';
import { lineText } from '../text/safe-text.js';
import { FileRefused, readBoundedFile, READ_BOUNDS } from '../util/read-bounded.js';

import { EmitError } from '../model/errors.js';
import { commentText } from '../text/safe-text.js';

/** Templates the emitter uses, by file name. */
export const TEMPLATE_FILES = {
  banner: 'banner.txt',
  packageReadme: 'package-readme.md',
} as const;

/** Variables each template may use. */
export const TEMPLATE_VARIABLES = {
  banner: ['schemaHash', 'messageName', 'packageName'],
  packageReadme: [
    'packageName',
    'baseUrl',
    'messageCount',
    'exampleIdentifier',
    'exampleNameLiteral',
    'jsTarget',
    'tsTarget',
  ],
} as const satisfies Record<keyof typeof TEMPLATE_FILES, readonly string[]>;

type TemplateKey = keyof typeof TEMPLATE_FILES;

/** Values for one rendering; `undefined` drops the lines that use the variable. */
export type TemplateValues<K extends TemplateKey> = {
  readonly [V in (typeof TEMPLATE_VARIABLES)[K][number]]?: string | undefined;
};

/** A parsed template line: literal text and variable names alternate, text first. */
interface TemplateLine {
  parts: string[];
  variables: string[];
}

/** A template parsed once, rendered many times. */
export interface CompiledTemplate<K extends TemplateKey> {
  /** Renders with the given values (already made safe by the caller); LF line ends. */
  render(values: TemplateValues<K>): string;
  /** The template text as read: part of the output's fingerprint. */
  source: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The folder of the built-in templates: `templates/` at the package root, from src/ or dist/. */
export const BUILTIN_TEMPLATES_DIR = fileURLToPath(new URL('../../templates/', import.meta.url));

/** Parses a template text; unknown variables are an {@link EmitError} naming the file. */
export function compileTemplate<K extends TemplateKey>(
  key: K,
  text: string,
  origin: string,
): CompiledTemplate<K> {
  const known: readonly string[] = TEMPLATE_VARIABLES[key];
  const normalized = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  const safeLines = normalized.split('\n').map((line) => line.split('\t').map(lineText).join('\t'));
  const lines: TemplateLine[] = normalized === '' ? [] : safeLines.map((line, index) => {
    const parts: string[] = [];
    const variables: string[] = [];
    let last = 0;
    for (const match of line.matchAll(PLACEHOLDER)) {
      const variable = match[1]!;
      if (!known.includes(variable)) {
        throw new EmitError(
          msg`Template ${origin}, line ${index + 1}: unknown variable {{${variable}}}.`,
          { hint: msg`Known variables of ${own(TEMPLATE_FILES[key])}: ${own(known.join(', '))}.` },
        );
      }
      parts.push(line.slice(last, match.index));
      variables.push(variable);
      last = match.index + match[0].length;
    }
    parts.push(line.slice(last));
    return { parts, variables };
  });
  return {
    source: text,
    render(values) {
      const lookup = values as Readonly<Record<string, string | undefined>>;
      let out = '';
      for (const { parts, variables } of lines) {
        let line = parts[0]!;
        let complete = true;
        for (let i = 0; i < variables.length; i++) {
          const value = lookup[variables[i]!];
          if (value === undefined) {
            complete = false;
            break;
          }
          line += value + parts[i + 1]!;
        }
        if (complete) out += line + '\n';
      }
      return out;
    },
  };
}

/** Both templates, compiled. */
export interface Templates {
  banner: CompiledTemplate<'banner'>;
  packageReadme: CompiledTemplate<'packageReadme'>;
}

/** A template's text, undefined when there is none; anything but a regular file of a template's size is an {@link EmitError} naming it. */
async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return (await readBoundedFile(path, { maxBytes: READ_BOUNDS.template, noFollow: true })).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    const why = error instanceof FileRefused ? error.reason : (error as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : (error as Error).message;
    throw new EmitError(msg`cannot read the template ${path}: ${own(why)}.`, {
      hint: msg`A template is a regular text file in the templates folder (at most ${own(`${READ_BOUNDS.template / 1024 / 1024} MiB`)}); replace it with one, or remove it to use the built-in template.`,
    });
  }
}

async function loadOne<K extends TemplateKey>(
  key: K,
  templatesDir: string | undefined,
  redact: (text: string) => string,
): Promise<CompiledTemplate<K>> {
  const file = TEMPLATE_FILES[key];
  if (templatesDir !== undefined) {
    const userPath = join(templatesDir, file);
    const text = await readIfExists(userPath);
    if (text !== undefined) return compileTemplate(key, redact(text), userPath);
  }
  const builtinPath = join(BUILTIN_TEMPLATES_DIR, file);
  const text = await readIfExists(builtinPath);
  if (text === undefined) {
    throw new EmitError(msg`The built-in template ${builtinPath} is missing.`, {
      hint: msg`Reinstall schema-sync, or put a template of that name in your templates folder.`,
    });
  }
  return compileTemplate(key, text, builtinPath);
}

/**
 * Loads the templates: a file of the same name in `templatesDir` overrides the built-in one; its
 * text passes the run's redactor (`redact`).
 *
 * @throws EmitError when `templatesDir` is given but is not a folder, or a template there is no
 *   regular file of a template's size.
 */
export async function loadTemplates(templatesDir?: string, redact: (text: string) => string = (text) => text): Promise<Templates> {
  if (templatesDir !== undefined) {
    const info = await stat(templatesDir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new EmitError(msg`The templates folder ${templatesDir} does not exist or is not a folder.`, {
        hint: msg`Fix the templates option, or leave it out to use the built-in templates.`,
      });
    }
  }
  const [banner, packageReadme] = await Promise.all([
    loadOne('banner', templatesDir, redact),
    loadOne('packageReadme', templatesDir, redact),
  ]);
  return { banner, packageReadme };
}

/**
 * The first line a generated file begins with under the built-in banner and under the banner of
 * `templatesDir` (with `packageName`, as the plan renders it): how a file of schema-sync's that
 * no manifest names is told from one of the user's (see write/stray-files.ts).
 */
export async function bannerFirstLines(templatesDir: string | undefined, packageName: string | undefined): Promise<string[]> {
  const banners = [await loadOne('banner', undefined, (text) => text), ...(templatesDir === undefined ? [] : [await loadOne('banner', templatesDir, (text) => text)])];
  const values = { packageName: packageName === undefined ? undefined : commentText(packageName) };
  return banners.map((banner) => banner.render(values).split('\n')[0]!);
}
