/**
 * The fault matrix: for every route of the route table (primary paths and aliases) and the
 * photo ingest, the probes that exercise it, and the faults each of them runs under. Shared by
 * the fault tests (faults.test.ts) and the log privacy test (log-privacy.test.ts).
 */
import { type Route, type RouteId, pathsOf, routes } from '#lib/http/routes';
import { always, failures, onFirstAttempt } from './aws-fault-injection';
import type { Faults } from './fault-window';
import {
  checkinInfoProbe,
  checkinStatusProbe,
  freeCheckinProbe,
  paidCheckinProbe,
  preflightProbe,
  retryCheckoutProbe,
} from './probes/checkin-probes';
import { ingestProbe, webhookProbe } from './probes/event-probes';
import { unsubscribePageProbe, unsubscribeProbe } from './probes/link-probes';
import type { Probe, ProbeSpec } from './probes/probe';
import { importProbe, personWithPhoto, serverRead, serverRefusal } from './probes/server-probes';
import { abortUploadProbe, inboxListingProbe, multipartUploadProbe } from './probes/upload-probes';

/** Every route id maps to its probes: a route added to the table does not compile here until it has some. */
const PROBES: Record<RouteId, ProbeSpec[]> = {
  getCheckinInfo: [checkinInfoProbe],
  submitCheckin: [
    freeCheckinProbe,
    paidCheckinProbe('submitCheckin: paid package with selfie (readiness cached)', true, true),
    paidCheckinProbe('submitCheckin: paid package (readiness read from Stripe)', false, false),
    checkinStatusProbe,
    retryCheckoutProbe,
  ],
  checkinInfoPreflight: [preflightProbe('GET')],
  checkinPreflight: [preflightProbe('POST')],
  listFormFields: [serverRead((answer) => expect(answer.body.formFields).toEqual([]))],
  listPersonPhotos: [
    serverRead(
      (answer) =>
        expect(answer.body.photos).toEqual([
          expect.objectContaining({ fileName: 'portrait.jpg', url: expect.any(String) }),
        ]),
      personWithPhoto,
    ),
  ],
  listShootingDays: [
    serverRead((answer, f) =>
      expect(answer.body.shootingDays).toEqual([expect.objectContaining({ id: f.dayId, booked: 0 })]),
    ),
  ],
  listPersons: [serverRead((answer) => expect(answer.body.persons).toEqual([]))],
  importPersons: [importProbe],
  getGalleryStats: [serverRead((answer) => expect(answer.body.persons.total).toBe(0))],
  listInboxFiles: [inboxListingProbe],
  createUploads: [multipartUploadProbe],
  completeUploads: [abortUploadProbe],
  createHrExport: [
    serverRefusal('HR export of a gallery without the HR consent', 'POST', 409, 'hr_export_consent_not_asked'),
  ],
  getHrExport: [serverRefusal('an HR export the gallery does not have', 'GET', 404, 'hr_export_not_found')],
  stripeWebhook: [webhookProbe],
  unsubscribePage: [unsubscribePageProbe],
  unsubscribe: [unsubscribeProbe],
};

export const MATRIX: Probe[] = [
  ...(routes as readonly Route[]).flatMap((route) =>
    pathsOf(route).flatMap((template) =>
      PROBES[route.id as RouteId].map((spec) => ({
        ...spec,
        routeId: route.id as RouteId,
        method: route.method,
        template,
        label: `${route.method} ${template} (${route.access}): ${spec.label === 'GET' ? route.id : spec.label}`,
      })),
    ),
  ),
  ingestProbe,
];

// ---------------------------------------------------------------------------------------------
// The faults of the matrix.

export interface FaultSpec {
  name: string;
  service: 'DynamoDB' | 'S3' | 'Stripe';
  /** Fails every attempt of the calls it concerns, so an endpoint making them must give its documented error. */
  persistent: boolean;
  /** Only DynamoDB transactions fail. */
  transactionsOnly?: boolean;
  faults: Faults;
}

export const FAULTS: FaultSpec[] = [
  {
    name: 'DynamoDB throttled on every attempt (ProvisionedThroughputExceededException)',
    service: 'DynamoDB',
    persistent: true,
    faults: { aws: always('DynamoDB', { before: failures.provisionedThroughput }) },
  },
  {
    name: 'DynamoDB transactions throttled on every attempt (ThrottlingException)',
    service: 'DynamoDB',
    persistent: true,
    transactionsOnly: true,
    faults: { aws: always('DynamoDB', { before: failures.throttling }, 'TransactWriteItemsCommand') },
  },
  {
    name: 'DynamoDB throttled on the first attempt of every call',
    service: 'DynamoDB',
    persistent: false,
    faults: { aws: onFirstAttempt('DynamoDB', { before: failures.throttling }) },
  },
  {
    name: 'DynamoDB timing out on every attempt (TimeoutError)',
    service: 'DynamoDB',
    persistent: true,
    faults: { aws: always('DynamoDB', { before: failures.socketTimeout }) },
  },
  {
    name: 'DynamoDB answer lost after the first attempt of every call was applied (TimeoutError)',
    service: 'DynamoDB',
    persistent: false,
    faults: { aws: onFirstAttempt('DynamoDB', { after: failures.socketTimeout }) },
  },
  {
    name: 'S3 unavailable on every attempt (503)',
    service: 'S3',
    persistent: true,
    faults: { aws: always('S3', { before: failures.s3Unavailable }) },
  },
  {
    name: 'S3 unavailable on the first attempt of every call',
    service: 'S3',
    persistent: false,
    faults: { aws: onFirstAttempt('S3', { before: failures.s3Unavailable }) },
  },
  { name: 'Stripe down (HTTP 500 on every call)', service: 'Stripe', persistent: true, faults: { stripe: 'down' } },
  {
    name: 'Stripe unreachable (connection reset on every call)',
    service: 'Stripe',
    persistent: true,
    faults: { stripe: 'reset' },
  },
  {
    name: 'Stripe failing the first attempt of every call',
    service: 'Stripe',
    persistent: false,
    faults: { stripe: 'flaky' },
  },
];

/** A persistent fault fails the probes that reach its service; a transient one fails none. */
export function affected(probe: Probe, fault: FaultSpec): boolean {
  if (!fault.persistent) return false;
  if (fault.service === 'DynamoDB') return fault.transactionsOnly ? probe.touches.transactions : probe.touches.dynamodb;
  return fault.service === 'S3' ? probe.touches.s3 : probe.touches.stripe;
}
