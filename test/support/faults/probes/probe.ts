/**
 * What a probe is: a request that exercises one endpoint, prepared on a fresh gallery, with what
 * its success looks like and what the participant, the client, Stripe or Lambda does once a
 * fault is gone. Also the pieces the probes share.
 */
import type { RouteId } from '#lib/http/routes';
import { makeJpeg } from '../../media';
import type { Fixture } from '../galleries';
import type { Outcome } from '../requests';

/** The services a request reaches, as the matrix assumes them (and checks, without a fault). */
export interface Touches {
  dynamodb: boolean;
  s3: boolean;
  stripe: boolean;
  /** DynamoDB transactions (TransactWriteItems): the writes that create persons, reservations, payments and photos. */
  transactions: boolean;
}

export interface Setup {
  run(): Promise<Outcome>;
  /** The answer of a request that succeeded, and what it stored. `first`: the first delivery of this request. */
  expectSuccess(outcome: Outcome, first: boolean): Promise<void>;
  /** What the participant, the client, Stripe or Lambda does once the fault is gone, given the first outcome. */
  settle(outcome: Outcome): Promise<void>;
}

export interface ProbeSpec {
  label: string;
  touches: Touches;
  prepare(f: Fixture, path: string): Promise<Setup>;
}

/** A probe placed on one path of one route (or on the photo ingest, which is no route). */
export interface Probe extends ProbeSpec {
  routeId: RouteId | 'ingestPhoto';
  method: string;
  template: string;
}

export const READS: Touches = { dynamodb: true, s3: false, stripe: false, transactions: false };
export const NOTHING: Touches = { dynamodb: false, s3: false, stripe: false, transactions: false };

/** The path template with the gallery's token (and a person) filled in. */
export const fill = (template: string, f: Fixture, personId = '') =>
  template.replace('{token}', f.token).replace('{personId}', personId);

/** A small JPEG, base64, as a selfie. */
export const selfie = makeJpeg(16, 16).toString('base64');

/** Settling by sending the same request again when it failed, and expecting it to succeed. */
export function retryOnFailure(run: () => Promise<Outcome>, expectSuccess: Setup['expectSuccess']): Setup['settle'] {
  return async (outcome) => {
    const failed = outcome.kind === 'invocation' ? outcome.error !== undefined : outcome.answer.status !== 200;
    if (failed) await expectSuccess(await run(), false);
  };
}
