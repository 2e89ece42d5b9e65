import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/platform/table/client';
import { CONTENDED_RETRIES, type TransactItem, itemAt } from '#lib/platform/table/conditional-writes';
import { isCancelledTransaction } from '#lib/platform/table/store-errors';
import { cancellationCodes, withStoreRetries } from '#lib/platform/table/retry';
import { DomainError } from '#lib/platform/domain-error';
import { eventPut } from '#lib/events/store/outbox';
import { checkinCompleted } from '#lib/events/rules/event-catalogue';
import { type SpotTaking, giveBackSpot, withSpotTaken } from '#lib/galleries/store/day-bookings';
import type { SpotCounter } from '#lib/galleries/rules/spot-counters';
import { importedCompletionItems } from '#lib/persons/store/imported-completion';
import { emailCheckinLimitReached } from '#lib/checkin/store/checkins';
import { emailCheckinCount } from '#lib/checkin/store/email-checkins';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * Completing an imported person with its own check-in (importedOnly galleries). A check-in first
 * claims the person (persons' claimImportedPerson), so that one check-in at a time stores a selfie
 * under its key and completes it; the completion is one transaction conditional on that claim.
 */

/**
 * Stores `completed` (the imported person `imported` as its check-in completed it) in one
 * transaction held by `claimId`: the person, its place on the guest list under its address now,
 * the spot of a day it moves to (shooting_day_full) and back to the day it leaves, the email's
 * count (email_checkin_limit, as for any free check-in) and its checkin.completed event.
 */
export function completeImportedPerson(
  scope: GalleryScope,
  imported: Person,
  completed: Person,
  options: {
    claimId: string;
    checkinsPerEmail: number;
    existingDayIds: ReadonlySet<string>;
    dayCounters?: readonly SpotCounter[];
  },
): Promise<Person> {
  const movesDay = completed.shootingDayId !== imported.shootingDayId;
  if (!movesDay || !completed.shootingDayId) return completeWithSpot(scope, imported, completed, options, undefined, 1);
  return withSpotTaken(scope, completed.shootingDayId, options.dayCounters, {}, (spot, attempt) =>
    completeWithSpot(scope, imported, completed, options, spot, attempt),
  );
}

async function completeWithSpot(
  scope: GalleryScope,
  imported: Person,
  completed: Person,
  options: { claimId: string; checkinsPerEmail: number; existingDayIds: ReadonlySet<string> },
  taking: SpotTaking | undefined,
  attempt: number,
): Promise<Person> {
  const email = completed.email;
  if (email === null) throw new Error('A check-in always gives an email address');
  const spots: TransactItem[] = taking?.items ?? [];
  const leftDay =
    taking && imported.shootingDayId && options.existingDayIds.has(imported.shootingDayId)
      ? [giveBackSpot(scope, imported.shootingDayId)]
      : [];
  const items: TransactItem[] = [
    ...importedCompletionItems(scope, completed, {
      expression: 'checkinClaim = :claim AND attribute_not_exists(checkedInAt)',
      values: { ':claim': options.claimId },
    }),
    ...spots,
    ...leftDay,
    emailCheckinCount(scope, email, options.checkinsPerEmail),
    eventPut(checkinCompleted({ tenantId: scope.tenantId, galleryToken: scope.token }, completed, null)),
  ];
  try {
    // The claim's ID as the request token: a resend after a lost answer is applied once, and
    // answered as the first send (another spot counter tried after a full one is another request).
    const requestToken = attempt === 1 ? options.claimId : `${options.claimId}-${attempt}`;
    await withStoreRetries(
      () => db.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: requestToken })),
      taking ? taking.retry : CONTENDED_RETRIES,
    );
    return completed;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    const codes = cancellationCodes(error);
    const failed = codes.findIndex((code) => code === 'ConditionalCheckFailed');
    // Cancelled by conflicts to the end of its retries: withSpotTaken may try another counter.
    if (failed === -1) throw error;
    if (taking && failed >= 2 && failed < 2 + spots.length) throw taking.refusal(failed - 2, itemAt(error, failed));
    if (failed === 2 + spots.length + leftDay.length) throw emailCheckinLimitReached(options.checkinsPerEmail);
    // The claim ran out and another check-in took the person meanwhile: nothing was kept, retry.
    throw new DomainError(
      'reservation_changed',
      'The invitation was being used by another check-in at the same time; retry.',
    );
  }
}
