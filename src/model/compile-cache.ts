/**
 * A V8 code cache for the large CommonJS files the CLI loads (its own bundle, ts-morph and the
 * TypeScript compiler inside it): compiling them costs ~0.3 s a run, reading compiled code back
 * a tenth of that. Node 22 has this built in (`module.enableCompileCache`); Node 20 does not.
 *
 * Entries are keyed by file path, size, mtime and the Node version, written atomically, and
 * V8 itself rejects data from another V8 build or flag set (then it is rewritten). Any cache
 * error falls back to a plain compile: the cache can only make a run faster, never different.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { writeCacheFile } from './cache-dir.js';

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

/** Installs the cache for CommonJS modules compiled from now on; `dir` is the cache folder. */
export function installCompileCache(dir: string): void {
  const internals = Module as ModuleInternals;
  const original = internals.prototype._compile;
  const store = join(dir, `v8-${process.version}-${process.arch}`);
  const pending: Array<{ file: string; script: vm.Script }> = [];
  internals.prototype._compile = function compileWithCache(this: CompilingModule, content: string, filename: string) {
    if (content.length < MIN_BYTES || !CACHEABLE.test(filename)) return original.call(this, content, filename);
    let file: string;
    let cachedData: Buffer | undefined;
    let script: vm.Script;
    try {
      const stat = statSync(filename);
      file = join(store, createHash('sha256').update(`${filename}\0${stat.size}\0${stat.mtimeMs}`).digest('hex').slice(0, 32));
      try {
        cachedData = readFileSync(file);
      } catch {
        cachedData = undefined;
      }
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
  // Node 20 reads a CommonJS file with readFileSync(file, 'utf8'), which takes twice as long as
  // reading its bytes and decoding them (17 against 9 ms for TypeScript's 9 MB). The files
  // cached here are CommonJS by name (.cjs) or by their package (ts-morph and @ts-morph/common
  // set no "type"), so they skip the loader's format check too.
  const extensions = internals._extensions as Record<string, (module: CompilingModule, filename: string) => void>;
  const loadJs = extensions['.js']!;
  extensions['.js'] = function loadWithFastRead(this: unknown, module: CompilingModule, filename: string) {
    if (!CACHEABLE.test(filename)) return loadJs.call(this, module, filename);
    module._compile(readFileSync(filename).toString('utf8'), filename);
  };
  // Written at exit, so the entry also holds the functions this run compiled lazily.
  process.once('exit', () => {
    for (const { file, script } of pending) writeCacheFile(file, script.createCachedData());
  });
}
