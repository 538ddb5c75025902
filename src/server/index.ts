/**
 * The bundled reference server of the schema listing service, for the `serve` command and the
 * demo; the tests wrap it (test/helpers/server/).
 */

export {
  startReferenceServer,
  type Deliver,
  type Exchange,
  type MutableServerOptions,
  type ReferenceServer,
  type ReferenceServerOptions,
} from './reference-server.js';
export { sendAnswer, type Answer, type RecordedRequest } from './answer.js';
export { loadListingFile } from './listing.js';
export { loadSchemasBeside, loadSchemasFile, schemasPathFor, type SchemaSet } from './schemas.js';
export { loadRecordFiles, type RecordSet } from './records.js';
