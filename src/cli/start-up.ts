/**
 * Everything the CLI does only to start fast, in one place; the library API never imports this
 * module or the parts module beside it (a test holds that). Each trick is kept while a bench
 * row shows it pays (figures in bench/README.md):
 *
 * - the CLI runs from one bundle (scripts/bundle-cli.mjs) loaded through a V8 code cache
 *   ({@link loadCli}): one file compiles far faster than the ~300 modules behind it, and
 *   reading compiled code back is faster still;
 * - WebAssembly is compiled by V8's baseline tier only (`--liftoff-only`, in {@link loadCli});
 * - in the bundle, `undici` is the parts of it schema-sync uses (undici-parts.ts);
 * - in the bundle, each copy of string-width is wrapped in {@link asciiStringWidth}.
 */
import { existsSync, statSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { cacheDir, cacheDirRefusal, readCacheFile, writeCacheFile } from '../incremental/cache-dir.js';
import { pruneCodeCache } from '../incremental/prune-cache.js';
import { hashOf } from '../util/hash.js';

type Entry = typeof import('./entry.js');

/** Loads the CLI: its bundle through the code cache when the build made one, else its modules as they are (a build by tsc alone). */
export async function loadCli(): Promise<Entry> {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 re-compiles it with its optimising
  // tier in the background, and a process that ends soon after its request waits for that; the
  // baseline tier parses a listing just as well. Set before any WebAssembly is compiled.
  v8.setFlagsFromString('--liftoff-only');
  const bundle = new URL('./schema-sync.cjs', import.meta.url);
  if (!existsSync(bundle)) return import('./entry.js');
  // A cache folder another user could have written is not used: V8 would run the code in it
  // (`--verbose` says why, where the run's settings are resolved: cli/main.ts).
  const dir = cacheDir();
  if (dir !== undefined && cacheDirRefusal(dir) === undefined) installCompileCache(dir);
  return createRequire(import.meta.url)(fileURLToPath(bundle)) as Entry;
}

type StringWidth = (text: string, options?: unknown) => number;

/**
 * A stand-in for string-width, which yargs measures its help text with (rendered on every
 * command, in case a handler shows it) and whose module set-up (an Intl.Segmenter,
 * Unicode-property regular expressions) would run on every start. Printable ASCII is answered
 * here (its width is its length, as string-width computes it); the first other text loads the
 * real module through `load`.
 */
export function asciiStringWidth(load: () => StringWidth): StringWidth {
  let real: StringWidth | undefined;
  return (text, options) => {
    if (typeof text === 'string' && /^[\x20-\x7e]*$/.test(text)) return text.length;
    real ??= load();
    return real(text, options);
  };
}

/** Below this size a file compiles faster than its cache entry is read. */
const MIN_BYTES = 64 * 1024;

/**
 * Only files known to make no dynamic `import()`: a script compiled through `vm` has no import
 * callback on Node 20. The CLI bundle and ts-morph with its TypeScript compiler qualify.
 */
const CACHEABLE = /[\\/](?:dist[\\/]cli[\\/]schema-sync\.cjs|node_modules[\\/](?:ts-morph|@ts-morph[\\/]common)[\\/]dist[\\/][^\\/]+\.js)$/;

interface CompilingModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

type ModuleInternals = typeof Module & {
  prototype: CompilingModule;
  wrap(script: string): string;
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string;
  _cache: unknown;
  _extensions: unknown;
};

/**
 * A V8 code cache, in `dir`, for the large CommonJS files compiled from now on (the bundle,
 * ts-morph and the TypeScript compiler inside it); Node 22 has this built in
 * (`module.enableCompileCache`), Node 20 does not. Entries are keyed by file path, size, mtime
 * and the Node version, written atomically, and V8 itself rejects data from another V8 build or
 * flag set (then it is rewritten). V8 checks no more of the source than its length, so an entry
 * is read only from a folder and file of the current user's that no one else can write
 * (`readCacheFile`, `cacheDirRefusal`). Any cache error falls back to a plain compile: the cache can
 * only make a run faster, never different. Each build and install path makes entries of its own:
 * those of others beyond the newest few are pruned (`pruneCodeCache`).
 */
function installCompileCache(dir: string): void {
  const internals = Module as ModuleInternals;
  const original = internals.prototype._compile;
  const store = join(dir, `v8-${process.version}-${process.arch}`);
  const pending: Array<{ file: string; script: vm.Script }> = [];
  const used = new Set<string>();
  internals.prototype._compile = function compileWithCache(this: CompilingModule, content: string, filename: string) {
    if (content.length < MIN_BYTES || !CACHEABLE.test(filename)) return original.call(this, content, filename);
    let file: string;
    let cachedData: Buffer | undefined;
    let script: vm.Script;
    try {
      const stat = statSync(filename);
      file = join(store, hashOf(`${filename}\0${stat.size}\0${stat.mtimeMs}`));
      used.add(file);
      cachedData = readCacheFile(file);
      // No importModuleDynamically: on Node 20 it needs a flag or warns, and is lost with cached
      // data; the bundle is built without dynamic import() for that reason.
      script = new vm.Script(internals.wrap(content), { filename, cachedData });
    } catch {
      return original.call(this, content, filename);
    }
    if (cachedData === undefined || script.cachedDataRejected) pending.push({ file, script });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const require = Object.assign((id: string) => this.require(id), {
      resolve: (request: string, options?: unknown) => internals._resolveFilename(request, this, false, options),
      main: (process as { mainModule?: unknown }).mainModule,
      cache: internals._cache,
      extensions: internals._extensions,
    });
    return wrapper.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  // Written at exit, so the entry also holds the functions this run compiled lazily. Then, at
  // most once a day, the entries of other builds and install paths beyond the newest few go.
  process.once('exit', () => {
    for (const { file, script } of pending) writeCacheFile(file, script.createCachedData(), dir);
    pruneCodeCache(dir, used, Date.now());
  });
}
