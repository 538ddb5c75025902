/**
 * The bundled reference server of the schema listing service, for the `serve` command, the
 * demo and network tests.
 */

export { startReferenceServer, type ReferenceServer } from './reference-server.js';
export { loadListingFile } from './listing.js';
export { ACTIONS_ENCODINGS, FLAG_ENCODINGS, type ActionsEncoding, type FlagEncoding, type ListingShape } from './listing-shape.js';
export { loadSchemasBeside, loadSchemasFile, schemasPathFor, type SchemaSet } from './schemas.js';
export type { Fault, Wait } from './fault.js';
