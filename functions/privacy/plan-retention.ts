import type { Context, SQSEvent } from 'aws-lambda';
import { logger, reportFailure } from '#lib/platform/logger';
import { parseRetentionMessage } from '#lib/privacy/adapters/retention-queues';
import { planRetention } from '#lib/privacy/plan-retention';
import { triggered } from '#lib/http/triggered';

/** Time left when the planner stops and queues its continuation: a page and its messages take far less. */
const STOP_MARGIN_MS = 60_000;

/**
 * Once a day (the schedule, whose event holds no records), and for each continuation a cut-off
 * run queued: queues one retention message per gallery (lib/privacy/plan-retention.ts).
 */
export const handler = triggered(
  async (event: Partial<SQSEvent>, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<void> => {
    const records = event.Records ?? [];
    const cursors =
      records.length === 0 ? [undefined] : records.map((record) => parseRetentionMessage(record.body, 'plan')?.cursor);
    if (records.length > 0 && cursors.includes(undefined))
      throw reportFailure('retention planning failed', new Error('Malformed continuation message'));
    for (const cursor of cursors) {
      const outcome = await planRetention({
        cursor,
        keepGoing: () => context.getRemainingTimeInMillis() > STOP_MARGIN_MS,
      }).catch((error: unknown) => {
        throw reportFailure('retention planning failed', error);
      });
      logger.info('retention planned', { counts: outcome });
    }
  },
);
