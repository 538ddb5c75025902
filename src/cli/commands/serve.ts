import { resolve } from 'node:path';
import { loadListingFile, loadRecordFiles, loadSchemasBeside, loadSchemasFile, startReferenceServer } from '../../server/index.js';
import { EXIT } from '../exit-codes.js';
import type { CommandContext } from './context.js';
import { HEADER_KEYS } from '../../server/header-keys.js';
import { plural } from '../../util/plural.js';

/** Starts the reference server, prints its base URL on stdout, and runs until stopped. */
export async function serveCommand({ args, io, log }: CommandContext): Promise<number> {
  // yargs demands --file and defaults --port.
  const file = resolve(io.cwd, args.string('file') ?? '');
  const listing = await loadListingFile(file);
  // `cmd=getschema` answers from --schemas, else from the schema file beside the listing
  // (x.json → x.schemas.json), if any.
  const schemasFile = args.string('schemas');
  const schemas = schemasFile === undefined ? await loadSchemasBeside(file) : await loadSchemasFile(resolve(io.cwd, schemasFile));
  // `cmd=getmsgs` on /rest/json and /rest/jsonf answers from the saved records answers --records names.
  const recordFiles = args.strings('records');
  const records = recordFiles.length === 0 ? undefined : await loadRecordFiles(recordFiles.map((path) => resolve(io.cwd, path)));
  const server = await startReferenceServer({
    listing,
    schemas,
    ...(records === undefined ? {} : { records }),
    port: args.number('port') ?? 0,
    host: args.string('host'),
    apiKey: args.string('api-key'),
    secret: args.string('secret'),
    trailer: args.boolean('trailer') ? {} : false,
    headerKey: args.choice('header-key', HEADER_KEYS),
  });
  log.out(server.url);
  const fields = schemas === undefined ? '' : `, field descriptors of ${plural(Object.keys(schemas).length, 'type')}`;
  const served = records === undefined ? '' : `, ${plural(records.elements.length, 'record')} at ${server.url}/rest/json`;
  log.info(`schema-sync reference server: ${plural(listing.length, 'element')}${fields} at ${server.url}/rest/proto${served} (Ctrl-C stops it)`);
  await (io.untilStopped ?? (() => new Promise<void>(() => undefined)))();
  await server.close();
  return EXIT.ok;
}
