import { UsageError } from '../cli-kit/cli-errors';
import { flag, optionalChoice } from '../cli-kit/options';
import { formatTable } from '../cli-kit/output';
import type { CommandHandlers } from './command-types';
import { REPLAYABLE_HANDLERS } from '#lib/http/handlers';
import { type ReplayOutcome, parseFailureQueues, replayLocalFailures, replayQueuedFailures } from './failure-replay';

/**
 * `ops replay [--function HANDLER] [--dry-run]`: the local stack's kept failures
 * (LOCAL_FAILURE_DIR, which the running `npm start` names) or, with FAILURE_QUEUES set, the
 * deployed stack's failure queues, run through their handlers again.
 */
export const opsCommands: CommandHandlers = {
  replay: async (values) => {
    const only = optionalChoice(values, 'function', REPLAYABLE_HANDLERS);
    const dryRun = flag(values, 'dry-run');
    const queues = process.env.FAILURE_QUEUES;
    const localDirectory = process.env.LOCAL_FAILURE_DIR;
    let outcomes: ReplayOutcome[];
    if (queues) outcomes = await replayQueuedFailures(parseFailureQueues(queues), { only, dryRun });
    else if (localDirectory) outcomes = await replayLocalFailures(localDirectory, { only, dryRun });
    else
      throw new UsageError(
        'Neither FAILURE_QUEUES (the stack output FailureQueues) nor a running npm start names where failures are kept',
      );
    const counts = Object.fromEntries(
      ['replayed', 'failed', 'expired', 'listed'].map((outcome) => [
        outcome,
        outcomes.filter((item) => item.outcome === outcome).length,
      ]),
    );
    return {
      data: { failures: outcomes, counts },
      lines: [
        ...formatTable(
          ['ID', 'FUNCTION', 'SOURCE', 'OUTCOME', 'DETAIL'],
          outcomes.map((item) => [item.id, item.handler, item.source, item.outcome, item.detail ?? '']),
        ),
        `${counts.replayed} replayed, ${counts.failed} failed again (kept), ${counts.expired} expired${dryRun ? `, ${counts.listed} listed` : ''}`,
      ],
    };
  },
};
