/** The reference server as the tests run it: faults, other deployments' shapes, recorded requests. */

export { startTestServer, type TestServer, type TestServerOptions, type TestServerSettings } from './test-server.js';
export type { Fault, Wait } from './fault.js';
export { ACTIONS_ENCODINGS, FLAG_ENCODINGS, type ActionsEncoding, type FlagEncoding, type ListingShape } from './listing-shape.js';
