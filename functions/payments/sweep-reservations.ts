import { logger, reportFailure } from '#lib/platform/logger';
import { sweepReservations } from '#lib/payments/reservation-sweep';
import { triggered } from '#lib/http/triggered';

/** Every few minutes (a schedule, not a route): gives back the spots of reservations nothing else will end. */
export const handler = triggered<void, void>(async () => {
  const tally = await sweepReservations().catch((error: unknown) => {
    throw reportFailure('reservation sweep failed', error);
  });
  logger.info('reservations swept', { counts: tally });
});
