/** Shared listings and a raw HTTP client for the reference server tests. */

import { request } from 'node:http';

/** One wire element in the shape real servers send. */
export function wireElement(name: string, mNum: number, mToken: string): Record<string, unknown> {
  return {
    header: { msgType: 'MsgDesc' },
    message: {
      pkey: {},
      name,
      mNum,
      schemaHash: `HASH${mNum.toString().padStart(12, '0')}`,
      actions: 'SIURD',
      hasTKey: 'Yes',
      hasEKey: 'No',
      hasOKey: 'No',
      hasCF: 'Yes',
      mToken,
      staticFilterFields: 'accnt,clientFirm',
      desc: `${name} record.`,
    },
  };
}

/** A small listing with two token groups worth filtering on. */
export function smallListing(): Record<string, unknown>[] {
  return [
    wireElement('Order', 1000, 'Trading'),
    wireElement('Fill', 1007, 'Trading'),
    wireElement('Heartbeat', 1014, 'SystemData'),
    wireElement('Account', 1021, 'ClientControl'),
  ];
}

/** Names of the descriptors in a listing body (non-descriptor elements give undefined). */
export function namesOf(body: unknown): unknown[] {
  return (body as { message?: { name?: unknown } }[]).map((element) => element.message?.name);
}

/** A raw answer: the bytes exactly as sent, no decompression or redirect following. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GETs a URL with node:http, returning the undecoded body. Rejects on socket errors. */
export function rawGet(url: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error(`aborted after ${Buffer.concat(chunks).length} bytes`)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}
