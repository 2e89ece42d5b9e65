import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { now } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { type TransactItem, conditionalWrite } from '#lib/platform/table/conditional-writes';
import { personKeys } from '#lib/persons/store/keys';
import { GSI1 } from '#lib/platform/table/table-definition';
import { guestListEntryUpdate } from '#lib/persons/store/guest-list';
import { addressIndexKeys } from '#lib/persons/store/persons';
import { UNCHANGED_BY_COMPLETION } from '#lib/persons/rules/imported-completion';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * The two items that store an imported person as its check-in completed it (`completed`, from
 * completedPerson): the person, on `condition` (who may complete it: a free check-in's claim, or
 * a paid order when nobody checked the person in meanwhile), and its place on the guest list
 * under its address now. The check-in and the payment feature each add their own items to them.
 */
export function importedCompletionItems(
  scope: GalleryScope,
  completed: Person,
  condition: { expression: string; values: Record<string, unknown>; names?: Record<string, string> },
): [TransactItem, TransactItem] {
  const personKey = personKeys.person(scope.tenantId, scope.token, completed.personId);
  const email = completed.email;
  if (email === null) throw new Error('A check-in always gives an email address');
  const employeeIndex = completed.employeeId
    ? {
        [GSI1.partitionKey]: personKeys.personsByEmployeeId(scope.tenantId, scope.token, completed.employeeId),
        [GSI1.sortKey]: personKey.sk,
      }
    : {};
  const values: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(completed).filter(([name]) => !UNCHANGED_BY_COMPLETION.has(name))),
    ...employeeIndex,
    // Listed under its address as it is now (sendPhotoLink's look-up).
    ...addressIndexKeys(scope, completed.personId, email),
  };
  const names = Object.keys(values);
  return [
    {
      Update: {
        TableName: tableName,
        Key: personKey,
        UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')} REMOVE checkinClaim, checkinClaimUntil`,
        ConditionExpression: condition.expression,
        ExpressionAttributeNames: {
          ...Object.fromEntries(names.map((name, index) => [`#a${index}`, name])),
          ...condition.names,
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(names.map((name, index) => [`:a${index}`, values[name]])),
          ...condition.values,
        },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    { Update: guestListEntryUpdate(scope, completed, email) },
  ];
}

/*
 * A check-in of an imported person (importedOnly galleries) first claims the person, so that one
 * check-in at a time stores a selfie under its key and completes it; the completion's
 * transaction is conditional on that claim (lib/checkin/store/imported-checkins.ts).
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
          Key: personKeys.person(scope.tenantId, scope.token, personId),
          UpdateExpression: 'SET checkinClaim = :claim, checkinClaimUntil = :until',
          ConditionExpression:
            'attribute_exists(pk) AND #source = :import AND attribute_not_exists(checkedInAt) AND (attribute_not_exists(checkinClaimUntil) OR checkinClaimUntil < :now)',
          ExpressionAttributeNames: { '#source': 'source' },
          ExpressionAttributeValues: {
            ':claim': claimId,
            ':until': now() + CHECKIN_CLAIM_MS,
            ':now': now(),
            ':import': 'import',
          },
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
          Key: personKeys.person(scope.tenantId, scope.token, personId),
          UpdateExpression: 'REMOVE checkinClaim, checkinClaimUntil',
          ConditionExpression: 'checkinClaim = :claim',
          ExpressionAttributeValues: { ':claim': claimId },
        }),
      ),
    () => true,
  );
}
