import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ConfigError } from '../model/errors.js';
import { joinMessages, msg, own, type Message } from '../model/message.js';

/** The config file names schema-sync reads, in the order they are listed in messages. */
export const CONFIG_FILES = ['schema-sync.config.json', 'schema-sync.config.mjs', 'schema-sync.config.js'] as const;

/** "schema-sync.config.json, schema-sync.config.mjs or schema-sync.config.js", for messages. */
const READ_NAMES_TEXT = `${CONFIG_FILES.slice(0, -1).join(', ')} or ${CONFIG_FILES[CONFIG_FILES.length - 1]}`;

/**
 * Names a user may well have written for a schema-sync config (`schema-sync.config.ts`, `.cjs`,
 * `.yaml`, `.schema-syncrc`, `schema-sync.json` …, any case). Those that are not read exactly as
 * spelled must not be skipped without a word: the run would go on with defaults nobody chose.
 */
const CONFIG_LIKE = [/^\.?schema-sync\.config(?:\..+)?$/i, /^\.schema-syncrc(?:\..+)?$/i, /^\.?schema-sync\.(?:json5?|jsonc|[cm]?[jt]s|ya?ml|toml)$/i];

/** What the upward search found. */
export interface FoundConfig {
  /** Absolute path of the config file, when there is one. */
  path?: string;
  /** Config-like names next to the one that is read: worth a warning, not an error. */
  warnings: Message[];
  /** The folders searched: from the working directory up to the folder where the search ended. */
  searched: ConfigSearch;
}

/** Where an upward search for the config file began and where it ended. */
export interface ConfigSearch {
  from: string;
  to: string;
}

/** "no config file found (searched /a/b up to /a)": said when a run lacks a setting and no config file gave any. */
export function noConfigFound(searched: ConfigSearch): Message {
  return msg`no config file found (searched ${searched.from} up to ${searched.to})`;
}

/**
 * Searches for the config file from `cwd` upward, as prettier and tsconfig do: the first folder
 * holding one of {@link CONFIG_FILES} wins; the search ends at the repository root (the first
 * folder holding `.git`) or else at the file system root. Two read names in one folder, or a
 * config-like name that is not read (with no read one beside it), is a ConfigError.
 */
export async function findConfig(cwd: string): Promise<FoundConfig> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const entries = await listFolder(dir);
    const read = CONFIG_FILES.filter((name) => entries.files.has(name));
    const unread = [...entries.files].filter((name) => CONFIG_LIKE.some((like) => like.test(name)) && !read.includes(name as (typeof CONFIG_FILES)[number])).sort();
    if (read.length > 1) {
      throw new ConfigError(msg`${dir} holds ${read.length} config files: ${listed(read)}; schema-sync reads one.`, {
        hint: msg`Keep one of them, or name the one to use with --config.`,
      });
    }
    if (read.length === 1) {
      const path = join(dir, read[0]!);
      const warnings = unread.length === 0 ? [] : [msg`${listed(unread.map((name) => join(dir, name)))} ${own(unread.length === 1 ? 'is' : 'are')} not read; using ${path}.`];
      return { path, warnings, searched: { from: cwd, to: dir } };
    }
    if (unread.length > 0) {
      throw new ConfigError(msg`${listed(unread.map((name) => join(dir, name)))} ${own(unread.length === 1 ? 'is' : 'are')} not read: schema-sync reads ${own(READ_NAMES_TEXT)}.`, {
        hint: msg`Rename it to one of those (in .mjs or .js, \`export default defineConfig({ … })\` with defineConfig from 'schema-sync' gives a typed config), or name a config file with --config.`,
      });
    }
    if (entries.git || dirname(dir) === dir) return { warnings: [], searched: { from: cwd, to: dir } };
  }
}

/**
 * The names of the files (not folders) in `dir`, and whether it is a repository root (`.git` is a
 * folder, or a file in a worktree or submodule). An unreadable folder counts as empty and the
 * search goes on upward.
 */
async function listFolder(dir: string): Promise<{ files: Set<string>; git: boolean }> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return { files: new Set(entries.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)), git: entries.some((entry) => entry.name === '.git') };
  } catch {
    return { files: new Set(), git: false };
  }
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): Message {
  const each = items.map((item) => msg`${item}`);
  return each.length <= 1 ? (each[0] ?? own('')) : msg`${joinMessages(each.slice(0, -1), ', ')} and ${each[each.length - 1]!}`;
}
