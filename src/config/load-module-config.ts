import { createRequire } from 'node:module';
import { ConfigError } from '../model/errors.js';

/**
 * The default export of a `.mjs` / `.js` config, through `require()`: the CLI runs as a CommonJS
 * bundle compiled through node:vm, where dynamic `import()` has no loader to call, while Node
 * >= 20.19 loads ES modules (without top-level await) through `require()`. A CommonJS `.js`
 * config's `module.exports` is its default export. Validation is the caller's. Node keeps a loaded
 * module for the life of the process, which is one run of the CLI.
 */
export function loadModuleConfig(path: string): unknown {
  let loaded: unknown;
  try {
    loaded = createRequire(path)(path);
  } catch (error) {
    throw loadFailure(path, error);
  }
  if (!isModuleNamespace(loaded)) return loaded;
  if ('default' in loaded) return loaded.default;
  throw new ConfigError(`config file ${path} has no default export.`, {
    hint: "Export the configuration as the module's default: `export default defineConfig({ … })` (defineConfig from 'schema-sync').",
  });
}

/** An ES module's namespace object (what `require()` returns for one), as opposed to `module.exports`. */
function isModuleNamespace(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module';
}

/** Why a config module did not load, and what to do; the module's own error message is kept. */
function loadFailure(path: string, error: unknown): ConfigError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ERR_REQUIRE_ASYNC_MODULE') {
    return new ConfigError(`config file ${path} uses top-level await, which schema-sync cannot load.`, {
      hint: 'Compute the configuration without top-level await (schema-sync loads config modules synchronously), or use schema-sync.config.json.',
      cause: error,
    });
  }
  if (code === 'ERR_REQUIRE_ESM') {
    return new ConfigError(`config file ${path} is an ES module, which Node ${process.versions.node} cannot load through require().`, {
      hint: 'Use Node 20.19 or later (or 22.12 or later), or use schema-sync.config.json.',
      cause: error,
    });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
  return new ConfigError(`config file ${path} failed to load: ${message}`, {
    hint: `Fix the error in the config module (\`node ${path}\` shows it in full).`,
    cause: error,
  });
}
