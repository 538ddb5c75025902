#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/entry.js and everything it imports, yargs, undici and zod
// included) into one CommonJS file, dist/cli/schema-sync.cjs, which bin.js loads through a V8
// code cache: start-up drops from ~0.45 s to ~0.15 s. ts-morph and prettier stay external
// (loaded only when files are emitted or formatted).
// The library entry (dist/index.js) is not bundled.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * zod exports every message locale through `z.locales` (360 KB, a fifth of the bundle); the CLI
 * speaks English only, the locale zod sets by default. The other locales are left out.
 */
function englishOnlyZod() {
  return {
    name: 'english-only-zod',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
        contents: 'export { default as en } from "./en.js";\n',
        resolveDir: join(root, 'node_modules/zod/v4/locales'),
      }));
    },
  };
}
/**
 * yargs measures its help text with string-width, whose module set-up (an Intl.Segmenter and
 * Unicode-property regular expressions, in two copies) took ~50 ms of every run, help or not.
 * Each import of it gets a stand-in that answers printable ASCII itself (its width is its
 * length, as string-width computes it) and loads the real module on the first other text.
 */
function lazyStringWidth() {
  return {
    name: 'lazy-string-width',
    setup(build) {
      build.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.pluginData?.real) return undefined;
        const real = await build.resolve('string-width', { resolveDir: args.resolveDir, kind: args.kind, pluginData: { real: true } });
        if (real.errors.length > 0) return { errors: real.errors };
        return { path: real.path, namespace: 'lazy-string-width' };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
        contents: `let real;
export default function stringWidth(text, options) {
  if (typeof text === 'string' && /^[\\x20-\\x7e]*$/.test(text)) return text.length;
  real ??= require(${JSON.stringify(args.path)}).default;
  return real(text, options);
}
`,
        resolveDir: dirname(args.path),
      }));
    },
  };
}

await build({
  entryPoints: [join(root, 'dist/cli/entry.js')],
  outfile: join(root, 'dist/cli/schema-sync.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['ts-morph', 'prettier'],
  // No dynamic import() in the bundle: it is compiled through node:vm for the code cache, where
  // Node 20 offers no import callback. import('prettier') becomes require('prettier') (its
  // CommonJS entry has the same API), and the `serve` command is bundled, initialised on use.
  supported: { 'dynamic-import': false },
  // Modules find package.json, templates/ and the emit worker relative to import.meta.url; the
  // bundle sits in dist/cli/, at the same depth as every compiled module, so those paths hold.
  define: { 'import.meta.url': '__schemaSyncModuleUrl' },
  banner: { js: "const __schemaSyncModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'none',
  plugins: [englishOnlyZod(), lazyStringWidth()],
  logLevel: 'warning',
});
