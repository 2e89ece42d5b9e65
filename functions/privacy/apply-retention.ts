import { logger, reportFailure } from '#lib/platform/logger';
import { applyRetention } from '#lib/privacy/retention';

/**
 * Once a day (a schedule, not a route): removes the personal data each gallery's retention says
 * is due. A gallery that failed makes the run fail after all others were done, so the
 * function's error alarm tells the operator.
 */
export const handler = async (): Promise<void> => {
  const tally = await applyRetention().catch((error: unknown) => {
    throw reportFailure('retention failed', error);
  });
  logger.info('retention applied', { counts: tally });
  if (tally.galleriesFailed > 0) throw reportFailure('retention failed', new Error('Retention failed for some galleries'));
};
