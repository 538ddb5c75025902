/**
 * What the CLI bundle gets for `import … from 'undici'` (scripts/bundle-cli.mjs redirects it
 * here; see start-up.ts): the parts schema-sync uses, imported file by file. undici's index
 * loads all of it (fetch, WebSocket, caches, mocks), twice the code to load on every start.
 * Exports the names src/fetch/http-get.ts imports, as undici's index does (a missing one fails
 * the bundle build). Types come from undici's own declarations (undici-modules.d.ts).
 */
import Agent from 'undici/lib/dispatcher/agent.js';
import Client from 'undici/lib/dispatcher/client.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import api from 'undici/lib/api/index.js';

// What undici's index does on load: the request API (request, stream, connect …) becomes
// methods of every dispatcher; the proxy agent itself relies on `connect`.
Object.assign(Dispatcher.prototype, api);

export { Agent, Client, EnvHttpProxyAgent };
