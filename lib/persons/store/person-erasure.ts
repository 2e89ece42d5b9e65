import { nowIso } from '#lib/platform/clock';
import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import { personKeys } from '#lib/persons/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * What erasure and retention (lib/privacy) change of persons: the writes come as transaction
 * items, so that privacy deletes a person together with what other features keep of it.
 */

/**
 * The delete of a person, conditional on it still being there (the transaction's first item, so
 * that its cancellation code tells a person gone already), and its access code kept linked to
 * nobody: never given out again, and a late camera card showing it is known for an erased person's.
 */
export function personDeletion(scope: GalleryScope, person: Pick<Person, 'personId' | 'code'>): TransactItem[] {
  return [
    {
      Delete: {
        TableName: tableName,
        Key: personKeys.person(scope.tenantId, scope.token, person.personId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: { ...personKeys.accessCode(scope.tenantId, scope.token, person.code), erasedAt: nowIso() },
        ConditionExpression: 'attribute_not_exists(pk) OR personId = :personId',
        ExpressionAttributeValues: { ':personId': person.personId },
      },
    },
  ];
}

/** Marks a person as having no selfie any more, refused when it had none (already). */
export function selfieFlagClearing(scope: GalleryScope, personId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'SET hasSelfie = :false',
      ConditionExpression: 'hasSelfie = :true',
      ExpressionAttributeValues: { ':true': true, ':false': false },
    },
  };
}

/** Deletes the access codes that erased persons left linked to nobody: with their gallery gone, they go too. */
export function deleteAccessCodes(scope: GalleryScope, codes: readonly string[]): Promise<void> {
  return deleteItems(codes.map((code) => personKeys.accessCode(scope.tenantId, scope.token, code)));
}
