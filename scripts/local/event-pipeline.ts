import { useDeliveryQueue } from '#lib/webhooks/adapters/delivery-queue';
import { type RunningChangeStream, startChangeStream } from './change-stream';
import { LocalDeliveryQueue } from './local-delivery-queue';
import { EVENT_DISPATCH_BATCH_SIZE, passesDispatchFilter } from '../../infra/webhook-delivery';
import type { LocalFailureStore } from './local-failure-store';
import { EVENT_DISPATCH_HANDLER, PHOTO_NOTICE_HANDLER, REFERENCE_FACE_HANDLER } from '#lib/http/handlers';

export interface LocalEventPipeline {
  queue: LocalDeliveryQueue;
  stream: RunningChangeStream;
  /** The photo-ready email sender's own reader of the stream, when started (`photoNotices`). */
  noticeStream?: RunningChangeStream;
  /** The reference-face function's own reader of the stream, when started (`referenceFaces`). */
  faceStream?: RunningChangeStream;
  /** Resolves once every change written so far is dispatched (and its photo notices sent) and every due delivery attempted. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What the stack deploys for events, on this machine: DynamoDB Local's stream to the
 * dispatcher function, and a local queue to the delivery worker function; the same handlers
 * Lambda runs. Needs TABLE_NAME and DYNAMODB_ENDPOINT set (applyLocalEnvironment). With
 * `photoNotices`, the photo-ready email function on the same stream too. Records a consumer gives
 * up on after its retries go to `failures` (scripts/local/local-failure-store.ts), when given.
 */
export async function startEventPipeline(
  options: {
    pollMs?: number;
    concurrency?: number;
    photoNotices?: boolean;
    referenceFaces?: boolean;
    failures?: LocalFailureStore;
  } = {},
): Promise<LocalEventPipeline> {
  const [{ handler: dispatch }, { handler: deliver }] = await Promise.all([
    import('../../functions/webhooks/dispatch-events'),
    import('../../functions/webhooks/deliver-webhooks'),
  ]);
  const queue = new LocalDeliveryQueue(deliver, { concurrency: options.concurrency, pollMs: options.pollMs });
  useDeliveryQueue(queue);
  queue.start();
  const stream = await startChangeStream({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    handler: dispatch,
    // As the stack's event source: only new events and replay requests, 100 of them a batch.
    filter: passesDispatchFilter,
    batchSize: EVENT_DISPATCH_BATCH_SIZE,
    pollMs: options.pollMs,
    failures: options.failures,
    handlerName: EVENT_DISPATCH_HANDLER,
  });
  // Photo-ready emails read the stream on their own, as their function's event source does in AWS
  // (sending to SES_ENDPOINT, the local SES that `npm start` runs).
  const noticeStream = options.photoNotices
    ? await startPhotoNoticeStream(options.pollMs, options.failures)
    : undefined;
  // Reference faces of consenting participants' selfies, as their function's event source does in AWS.
  const faceStream = options.referenceFaces
    ? await startReferenceFaceStream(options.pollMs, options.failures)
    : undefined;
  return {
    queue,
    stream,
    noticeStream,
    faceStream,
    async settled() {
      await Promise.all([stream.caughtUp(), noticeStream?.caughtUp(), faceStream?.caughtUp()]);
      await queue.settled();
    },
    async stop() {
      await faceStream?.stop();
      await noticeStream?.stop();
      await stream.stop();
      await queue.stop();
      useDeliveryQueue(undefined);
    },
  };
}

async function startReferenceFaceStream(
  pollMs: number | undefined,
  failures: LocalFailureStore | undefined,
): Promise<RunningChangeStream> {
  const { handler } = await import('../../functions/faces/describe-reference-faces');
  const handlerName = REFERENCE_FACE_HANDLER;
  return startChangeStream({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    handler,
    pollMs,
    failures,
    handlerName,
  });
}

async function startPhotoNoticeStream(
  pollMs: number | undefined,
  failures: LocalFailureStore | undefined,
): Promise<RunningChangeStream> {
  const { handler } = await import('../../functions/photos/notices/send-photo-notices');
  const handlerName = PHOTO_NOTICE_HANDLER;
  return startChangeStream({
    endpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: process.env.TABLE_NAME!,
    handler,
    pollMs,
    failures,
    handlerName,
  });
}
