import { resolve } from 'node:path';
import { loadListingFile, startReferenceServer, type ActionsEncoding, type FlagEncoding } from '../../server/index.js';
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
  olderDeployment?: boolean;
  actionsAs?: ActionsEncoding;
  flagsAs?: FlagEncoding;
}

/** Starts the reference server, prints its base URL on stdout, and runs until stopped. */
export async function serveCommand(args: ServeArgs, io: CliIo, log: Logger): Promise<number> {
  const listing = await loadListingFile(resolve(io.cwd, args.file));
  const server = await startReferenceServer({
    listing,
    port: args.port,
    host: args.host,
    apiKey: args.apiKey,
    secret: args.secret,
    trailer: args.trailer ? {} : false,
    headerKey: args.headerKey,
    shape: { older: args.olderDeployment, actions: args.actionsAs, flags: args.flagsAs },
  });
  log.out(server.url);
  log.info(`schema-sync reference server: ${listing.length} elements at ${server.url}/rest/proto (Ctrl-C stops it)`);
  await (io.untilStopped ?? (() => new Promise<void>(() => undefined)))();
  await server.close();
  return EXIT.ok;
}
