/**
 * Every function of the service, declared once: the HTTP handlers through the route table
 * (routes.ts), the triggered ones here, each with its path under `functions/` (without
 * extension) and what starts it. The CDK stack builds one function per entry of ALL_HANDLERS,
 * the local stack wires the triggered ones to its emulated queues and streams, and the admin
 * CLI replays the failures of those that keep them. A test checks that this list and the
 * files under functions/ are the same. What each function may touch (IAM) is infra's:
 * infra/function-permissions.ts, keyed by these names.
 */
import { type Route, UNMATCHED_ROUTE_HANDLER, routes } from '#lib/http/routes';

/**
 * s3: object-created events of the media bucket, delivered asynchronously.
 * schedule: an EventBridge rule. sqs: a standard queue. stream: the table's DynamoDB stream.
 */
export type TriggerKind = 's3' | 'schedule' | 'sqs' | 'stream';

export interface TriggeredHandler {
  readonly handler: string;
  readonly triggers: readonly TriggerKind[];
  /** Its failed events or records go to a failure queue, and `ops replay` runs them again (docs/deployment.md#failure-replay). */
  readonly keepsFailures?: true;
  readonly summary: string;
}

export const PHOTO_INGEST_HANDLER = 'photos/sorting/ingest-photo';
export const RESERVATION_SWEEP_HANDLER = 'payments/sweep-reservations';
export const RETENTION_PLANNER_HANDLER = 'privacy/plan-retention';
export const RETENTION_WORKER_HANDLER = 'privacy/apply-gallery-retention';
export const EVENT_DISPATCH_HANDLER = 'webhooks/dispatch-events';
export const WEBHOOK_DELIVERY_HANDLER = 'webhooks/deliver-webhooks';
export const PHOTO_NOTICE_HANDLER = 'photos/notices/send-photo-notices';
export const REFERENCE_FACE_HANDLER = 'faces/describe-reference-faces';
export const HR_EXPORT_BUILD_HANDLER = 'hr-exports/build-hr-export';

/** The functions behind no route, each started by its own trigger. */
export const triggeredHandlers = [
  {
    handler: PHOTO_INGEST_HANDLER,
    triggers: ['s3'],
    keepsFailures: true,
    summary: 'Sorts each new object under photos/ (infra/groupshoot-stack.ts)',
  },
  {
    handler: RESERVATION_SWEEP_HANDLER,
    triggers: ['schedule'],
    summary: 'Every few minutes, settles the reservations nothing else will end (docs/payments.md)',
  },
  {
    handler: RETENTION_PLANNER_HANDLER,
    triggers: ['schedule', 'sqs'],
    summary: 'Once a day, and for each continuation it queued, queues one retention message per gallery',
  },
  {
    handler: RETENTION_WORKER_HANDLER,
    triggers: ['sqs'],
    summary: "Applies one gallery's retention per message (infra/retention-fan-out.ts)",
  },
  {
    handler: EVENT_DISPATCH_HANDLER,
    triggers: ['stream'],
    keepsFailures: true,
    summary: 'For new events and replay requests, records the webhook deliveries and queues them',
  },
  {
    handler: WEBHOOK_DELIVERY_HANDLER,
    triggers: ['sqs'],
    summary: 'One signed HTTP attempt per message of the delivery queue (infra/webhook-delivery.ts)',
  },
  {
    handler: PHOTO_NOTICE_HANDLER,
    triggers: ['stream'],
    keepsFailures: true,
    summary: 'For photos.assigned events, one photo-ready email per consenting person (infra/photo-notices.ts)',
  },
  {
    handler: REFERENCE_FACE_HANDLER,
    triggers: ['stream'],
    keepsFailures: true,
    summary: 'For persons inserted with a selfie and face consent, their reference face (infra/reference-faces.ts)',
  },
  {
    handler: HR_EXPORT_BUILD_HANDLER,
    triggers: ['sqs'],
    summary: 'Builds one HR export per message of its queue (infra/hr-export-queue.ts)',
  },
] as const satisfies readonly TriggeredHandler[];

export type TriggeredHandlerName = (typeof triggeredHandlers)[number]['handler'];

export const TRIGGERED_HANDLERS: readonly TriggeredHandlerName[] = triggeredHandlers.map((entry) => entry.handler);

/** The triggered functions whose failures are kept for `ops replay`. */
export const REPLAYABLE_HANDLERS = triggeredHandlers
  .filter(
    (entry): entry is Extract<(typeof triggeredHandlers)[number], { keepsFailures: true }> => 'keepsFailures' in entry,
  )
  .map((entry) => entry.handler);

/** The functions behind the HTTP API: the routes' handlers, each once, and the one that answers what no route matches. */
export const HTTP_HANDLERS: readonly string[] = [
  ...new Set([UNMATCHED_ROUTE_HANDLER, ...(routes as readonly Route[]).map((route) => route.handler)]),
];

/** The name of every function: its handler's path under functions/, without extension. */
export type HandlerName = (typeof routes)[number]['handler'] | typeof UNMATCHED_ROUTE_HANDLER | TriggeredHandlerName;

/** Every function of the service, each once: what functions/ holds. */
export const ALL_HANDLERS: readonly string[] = [...HTTP_HANDLERS, ...TRIGGERED_HANDLERS];
