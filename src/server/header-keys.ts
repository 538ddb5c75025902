/**
 * The keys a listing element's header may name its type by (`msgType`, or `mTyp` as some
 * deployments write it): the reference server writes either (`serve --header-key`). A module of
 * its own, so the CLI's command table names them without loading the server.
 */
export const HEADER_KEYS = ['msgType', 'mTyp'] as const;

/** A header type key. */
export type HeaderKey = (typeof HEADER_KEYS)[number];
