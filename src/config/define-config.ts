import type { SchemaSyncConfig } from './schema.js';

/**
 * Types a `schema-sync.config.mjs` / `.js` without changing it: editors complete and check the
 * keys. `export default defineConfig({ baseUrl: 'https://…', out: 'src/generated/schema' });`
 */
export function defineConfig(config: SchemaSyncConfig): SchemaSyncConfig {
  return config;
}
