#!/usr/bin/env node
// Bundles the compiled CLI (dist/cli/entry.js and everything it imports, yargs, undici and zod
// included) into one CommonJS file, dist/cli/schema-sync.cjs, which bin.js loads through a V8
// code cache; src/cli/start-up.ts holds the start-up tricks and says why each is there. ts-morph
// and prettier stay external (loaded only when files are emitted or formatted). The library
// entry (dist/index.js) is not bundled.
import { build } from 'esbuild';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist/cli');

/** The tricks of start-up.ts that act at build time: `undici` and string-width redirected. */
const startUp = {
  name: 'start-up',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, () => ({ path: join(cli, 'undici-parts.js') }));
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData?.real) return undefined;
      // The importer's own copy (yargs, cliui and wrap-ansi each have one), loaded on first use.
      const real = await build.resolve('string-width', { resolveDir: args.resolveDir, kind: args.kind, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      // Named by its path in the project, as esbuild names every other module in the bundle's
      // comments and keys: an absolute path would put the build folder into the bundle, and two
      // builds of the same sources in two folders would differ.
      return { path: relative(root, real.path).split(sep).join('/'), namespace: 'ascii-string-width' };
    });
    build.onLoad({ filter: /.*/, namespace: 'ascii-string-width' }, (args) => {
      const path = join(root, args.path);
      return {
        contents: `import { asciiStringWidth } from ${JSON.stringify(join(cli, 'start-up.js'))};
export default asciiStringWidth(() => require(${JSON.stringify(path)}).default);
`,
        resolveDir: dirname(path),
      };
    });
  },
};

await build({
  entryPoints: [join(cli, 'entry.js')],
  outfile: join(cli, 'schema-sync.cjs'),
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
  plugins: [startUp],
  logLevel: 'warning',
});
