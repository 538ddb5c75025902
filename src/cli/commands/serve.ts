import { resolve } from 'node:path';
import { loadListingFile, loadSchemasBeside, startReferenceServer } from '../../server/index.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import type { Logger } from '../logger.js';

/** Flags of `serve`. */
export interface ServeArgs {
  file: string;
  port: number;
  host?: string;
  apiKey?: string;
  secret?: string;
  trailer?: boolean;
  headerKey?: 'msgType' | 'mTyp';
}

/** Starts the reference server, prints its base URL on stdout, and runs until stopped. */
export async function serveCommand(args: ServeArgs, io: CliIo, log: Logger): Promise<number> {
  const file = resolve(io.cwd, args.file);
  const listing = await loadListingFile(file);
  // `cmd=getschema` answers from the schema file beside the listing (x.json → x.schemas.json), if any.
  const schemas = await loadSchemasBeside(file);
  const server = await startReferenceServer({
    listing,
    schemas,
    port: args.port,
    host: args.host,
    apiKey: args.apiKey,
    secret: args.secret,
    trailer: args.trailer ? {} : false,
    headerKey: args.headerKey,
  });
  log.out(server.url);
  const fields = schemas === undefined ? '' : `, field descriptors of ${Object.keys(schemas).length} types`;
  log.info(`schema-sync reference server: ${listing.length} elements${fields} at ${server.url}/rest/proto (Ctrl-C stops it)`);
  await (io.untilStopped ?? (() => new Promise<void>(() => undefined)))();
  await server.close();
  return EXIT.ok;
}
