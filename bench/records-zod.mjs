// The zod 4 peer of the records row (bench/records.mjs): schemas of an OptionNbboQuote record
// element and of the QueryResult, written as a user of zod would write them from the same field
// descriptors. `Long` fields are numbers (JSON.parse's, rounded) or, for the lossless peer,
// bigints (lossless-json's) or numbers (small ones).
import { z } from 'zod';

const EXCHANGES = ['None', 'AMEX', 'BOX', 'CBOE', 'ISE', 'PHLX', 'ARCA', 'NSDQ', 'BATS', 'C2', 'MIAX', 'GEM', 'EDGO', 'MPRL', 'EMLD', 'MEMX'];

/** `{ record, result }`: the schemas of a record element and of the QueryResult element, `Long` as `number` or `bigint`. */
export function answerSchemas(int64) {
  const long = int64 === 'bigint' ? z.union([z.bigint(), z.number().int()]) : z.number();
  const ticker = { at: z.string(), ts: z.string(), tk: z.string() };
  const exchange = z.enum(EXCHANGES);
  const message = z.object({
    pkey: z.object({ okey: z.object({ ...ticker, dt: z.string(), xx: z.number(), cp: z.enum(['Call', 'Put']) }) }).optional(),
    ticker: z.object(ticker).optional(),
    bidPrice: z.number().optional(),
    bidSize: z.number().int().optional(),
    bidExch: exchange.optional(),
    bidMask: long.optional(),
    askPrice: z.number().optional(),
    askSize: z.number().int().optional(),
    askExch: exchange.optional(),
    uPrc: z.number().optional(),
    srcTimestamp: long.optional(),
    netTimestamp: long.optional(),
    timestamp: z.string().optional(),
  });
  return {
    record: z.object({ header: z.object({ mTyp: z.literal('OptionNbboQuote') }), message }),
    result: z.object({
      header: z.object({ mTyp: z.literal('QueryResult') }),
      message: z.object({ numMessagesSent: z.number().optional(), queryElapsed: z.number().optional(), result: z.enum(['Ok', 'Error', 'AuthError', 'TokenError', 'MLinkError', 'TransportError']), detail: z.string().optional() }),
    }),
  };
}
