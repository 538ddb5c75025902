/**
 * A Vite plugin for the test run: each copy of string-width that yargs, cliui and wrap-ansi
 * import is wrapped in `asciiStringWidth` (src/cli/start-up.ts), as scripts/bundle-cli.mjs does
 * for the built CLI. yargs renders a command's help text on every run, measuring each piece with
 * string-width, whose grapheme segmentation cost the CLI run in a test's own process (runCli,
 * test/helpers/in-process.ts) more than most of what the run did. With it, that run measures text
 * as the CLI users run does: printable ASCII by its length, anything else by the importer's own
 * string-width. The three packages go through Vite (vitest.config.ts, `server.deps.inline`) so that
 * their imports reach this plugin.
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** Packages whose import of string-width is wrapped (and which must be inlined for it). */
const MEASURING_PACKAGES = /[\\/]node_modules[\\/](?:yargs|cliui|wrap-ansi)[\\/]/;
/** The modules Vite must load itself rather than leave to Node: those packages, and the wrappers. */
export const INLINE = [MEASURING_PACKAGES, /ascii-string-width:/];

const START_UP = fileURLToPath(new URL('../../src/cli/start-up.ts', import.meta.url));
const PREFIX = '\0ascii-string-width:';

export function asciiStringWidth(): Plugin {
  return {
    name: 'ascii-string-width',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'string-width' || importer === undefined || !MEASURING_PACKAGES.test(importer)) return null;
      // The importer's own copy (cliui and wrap-ansi each have one of another version than yargs').
      const real = await this.resolve(source, importer, { ...options, skipSelf: true });
      return real === null ? null : `${PREFIX}${real.id}`;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const real = id.slice(PREFIX.length);
      return [
        `import { asciiStringWidth } from ${JSON.stringify(START_UP)};`,
        `import real from ${JSON.stringify(real)};`,
        'export default asciiStringWidth(() => real);',
      ].join('\n');
    },
  };
}
