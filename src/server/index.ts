/**
 * The bundled reference server of the schema listing service, for the `serve` command, the
 * demo and network tests.
 */

export { startReferenceServer, type ReferenceServer } from './reference-server.js';
export { loadListingFile } from './load-listing.js';
export type { Fault, FaultKind } from './fault.js';
export type { HeaderKey, MutableServerOptions, ReferenceServerOptions, TrailerOptions } from './options.js';
export type { RecordedRequest } from './recorded-request.js';
