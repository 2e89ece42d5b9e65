import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { CONTENDED_RETRIES, type TransactItem, conditionalWrite, itemAt } from '#lib/platform/table/conditional-writes';
import { isCancelledTransaction } from '#lib/platform/table/store-errors';
import { cancellationCodes, withStoreRetries } from '#lib/platform/table/retry';
import { keys } from '#lib/platform/table/keys';
import { GSI1 } from '#lib/platform/table/table-definition';
import { DomainError } from '#lib/platform/domain-error';
import { eventPut } from '#lib/events/store/outbox';
import { checkinCompleted } from '#lib/events/rules/event-catalogue';
import { giveBackSpot, spotRefusal, takeSpot } from '#lib/galleries/store/day-bookings';
import { guestListEntryUpdate } from '#lib/persons/store/guest-list';
import { emailCheckinCount, emailCheckinLimitReached } from '#lib/checkin/store/checkins';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * Completing an imported person with its own check-in (importedOnly galleries). A check-in first
 * claims the person, so that one check-in at a time stores a selfie under its key and completes
 * it; the completion is one transaction conditional on that claim.
 */

/** How long a claim holds: a check-in that stopped half-way (its instance ended) lets go after this. */
export const CHECKIN_CLAIM_MS = 60_000;

/**
 * Claims an imported person that has not checked in for the check-in `claimId`: false when it
 * checked in already or another check-in holds a live claim.
 */
export function claimImportedPerson(scope: GalleryScope, personId: string, claimId: string): Promise<boolean> {
  return conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.person(scope.tenantId, scope.token, personId),
          UpdateExpression: 'SET checkinClaim = :claim, checkinClaimUntil = :until',
          ConditionExpression:
            'attribute_exists(pk) AND #source = :import AND attribute_not_exists(checkedInAt) AND (attribute_not_exists(checkinClaimUntil) OR checkinClaimUntil < :now)',
          ExpressionAttributeNames: { '#source': 'source' },
          ExpressionAttributeValues: { ':claim': claimId, ':until': now() + CHECKIN_CLAIM_MS, ':now': now(), ':import': 'import' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    (item) => item?.checkinClaim === claimId && item.checkedInAt === undefined,
  );
}

/** Lets go of a claim whose check-in failed (a no-op when it is not held any more). */
export async function releaseClaim(scope: GalleryScope, personId: string, claimId: string): Promise<void> {
  await conditionalWrite(
    () =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.person(scope.tenantId, scope.token, personId),
          UpdateExpression: 'REMOVE checkinClaim, checkinClaimUntil',
          ConditionExpression: 'checkinClaim = :claim',
          ExpressionAttributeValues: { ':claim': claimId },
        }),
      ),
    () => true,
  );
}

/** What a completion never changes: the person's identity and origin, and its photo count (the photo ingest keeps that). */
const UNCHANGED_ATTRIBUTES: ReadonlySet<string> = new Set(['personId', 'code', 'source', 'createdAt', 'photoCount'] satisfies (keyof Person)[]);

/**
 * Stores `completed` (the imported person `imported` as its check-in completed it) in one
 * transaction held by `claimId`: the person, its place on the guest list under its address now,
 * the spot of a day it moves to (shooting_day_full) and back to the day it leaves, the email's
 * count (email_checkin_limit, as for any free check-in) and its checkin.completed event.
 */
export async function completeImportedPerson(
  scope: GalleryScope,
  imported: Person,
  completed: Person,
  options: { claimId: string; checkinsPerEmail: number; existingDayIds: ReadonlySet<string> },
): Promise<Person> {
  const personKey = keys.person(scope.tenantId, scope.token, completed.personId);
  const email = completed.email;
  if (email === null) throw new Error('A check-in always gives an email address');
  const employeeIndex = completed.employeeId
    ? { [GSI1.partitionKey]: keys.personsByEmployeeId(scope.tenantId, scope.token, completed.employeeId), [GSI1.sortKey]: personKey.sk }
    : {};
  const values: Record<string, unknown> = { ...Object.fromEntries(Object.entries(completed).filter(([name]) => !UNCHANGED_ATTRIBUTES.has(name))), ...employeeIndex };
  const names = Object.keys(values);
  const movesDay = completed.shootingDayId !== imported.shootingDayId;
  const spots: TransactItem[] = movesDay && completed.shootingDayId ? [takeSpot(scope, completed.shootingDayId)] : [];
  const leftDay = movesDay && imported.shootingDayId && options.existingDayIds.has(imported.shootingDayId) ? [giveBackSpot(scope, imported.shootingDayId)] : [];
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName,
        Key: personKey,
        UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')} REMOVE checkinClaim, checkinClaimUntil`,
        ConditionExpression: 'checkinClaim = :claim AND attribute_not_exists(checkedInAt)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name, index) => [`:a${index}`, values[name]])), ':claim': options.claimId },
      },
    },
    { Update: guestListEntryUpdate(scope, completed, email) },
    ...spots,
    ...leftDay,
    emailCheckinCount(scope, email, options.checkinsPerEmail),
    eventPut(checkinCompleted({ tenantId: scope.tenantId, galleryToken: scope.token }, completed, null)),
  ];
  try {
    // The claim's ID as the request token: a resend after a lost answer is applied once, and answered as the first send.
    await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: options.claimId })), CONTENDED_RETRIES);
    return completed;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    const codes = cancellationCodes(error);
    const failed = codes.findIndex((code) => code === 'ConditionalCheckFailed');
    if (failed >= 2 && failed < 2 + spots.length) throw spotRefusal(itemAt(error, failed));
    if (failed === 2 + spots.length + leftDay.length) throw emailCheckinLimitReached(options.checkinsPerEmail);
    // The claim ran out and another check-in took the person meanwhile: nothing was kept, retry.
    throw new DomainError('reservation_changed', 'The invitation was being used by another check-in at the same time; retry.');
  }
}
