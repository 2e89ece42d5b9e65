import * as v from 'valibot';

/**
 * Pieces every documented answer shares. The bodies themselves are described by the feature
 * that answers them (`lib/<feature>/*-schemas.ts`); lib/http/route-schemas.ts collects them for
 * the OpenAPI document, and tests validate recorded real answers against that document.
 */
export const nullableString = v.nullable(v.string());
export const requestId = v.pipe(v.string(), v.description('Also in the X-Request-Id header.'));

/**
 * What a use case returns for a 200 answer: the documented body without `ok` and `requestId`,
 * which the pipeline adds. Typing results so keeps them from drifting from the document.
 */
export type ResultMembers<Schema extends v.GenericSchema> =
  v.InferOutput<Schema> extends infer Body ? (Body extends unknown ? Omit<Body, 'ok' | 'requestId'> : never) : never;
