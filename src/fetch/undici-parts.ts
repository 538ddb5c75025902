/**
 * The parts of undici schema-sync uses, imported file by file. `import 'undici'` loads all of
 * it (fetch, WebSocket, caches, mocks: 1.1 MB of the CLI bundle, ~0.1 s of every run's
 * start-up); the client, the proxy agent, the redirect interceptor and the request API are half
 * that. Types come from undici's own declarations (undici-modules.d.ts).
 */
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import redirectInterceptor from 'undici/lib/interceptor/redirect.js';
import api from 'undici/lib/api/index.js';

// What undici's index does on load: the request API (request, stream, connect …) becomes
// methods of every dispatcher; the proxy agent itself relies on `connect`.
Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, redirectInterceptor };
