import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { personKeys } from '#lib/persons/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { ConsentChange, ParticipantConsent } from '#lib/persons/rules/person-model';
import { consentChangeAttribute } from '#lib/persons/store/persons';

/*
 * What other features record on, or check of, the person item, as items of their own
 * transactions: persons owns the item, so it builds every write to it. The caller keeps the
 * item's place in its transaction, where a cancellation reason is read by index.
 */

/**
 * The person's photo count up by one (photos): conditional on the caller's guess whether it is
 * their first photo, which the caller also counts among the gallery's persons with photos.
 */
export function photoCountUp(scope: GalleryScope, personId: string, firstPhoto: boolean): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'ADD photoCount :one',
      ConditionExpression: firstPhoto
        ? 'attribute_exists(pk) AND (attribute_not_exists(photoCount) OR photoCount = :zero)'
        : 'attribute_exists(pk) AND photoCount > :zero',
      ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
    },
  };
}

/** The person's photo count down by one (photos), conditional on the guess whether it was their last. */
export function photoCountDown(scope: GalleryScope, personId: string, lastPhoto: boolean): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'ADD photoCount :minusOne',
      ConditionExpression: lastPhoto ? 'photoCount = :one' : 'photoCount > :one',
      ExpressionAttributeValues: { ':minusOne': -1, ':one': 1 },
    },
  };
}

/** The photo the person's portrait is made from (photos' pick), replacing any earlier pick; the person must exist. */
export function portraitPickUpdate(
  scope: GalleryScope,
  pick: { personId: string; photoId: string; pickedBy: string },
  at: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, pick.personId),
      UpdateExpression: 'SET pickedPhotoId = :photoId, pickedBy = :pickedBy, pickedAt = :pickedAt',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':photoId': pick.photoId,
        ':pickedBy': pick.pickedBy,
        ':pickedAt': new Date(at).toISOString(),
      },
    },
  };
}

/** A check that the person exists, still has a selfie and still consents to face matching (faces' reference face). */
export function faceConsentCheck(scope: GalleryScope, personId: string): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      ConditionExpression: 'attribute_exists(pk) AND consents.faceConsent = :true AND hasSelfie = :true',
      ExpressionAttributeValues: { ':true': true },
    },
  };
}

/**
 * The person's face consent withdrawn (by the studio, or by the person): false from now on, so
 * that no reference face is described or stored for them (faceConsentCheck fails). The person
 * must exist.
 */
export function faceConsentWithdrawal(scope: GalleryScope, personId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'SET consents.faceConsent = :false',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':false': false },
    },
  };
}

/**
 * One of the person's consents changed after check-in (privacy): the consent, and beside it its
 * last change (`<consent>Change`: the value, when, by whom). Conditional on the person existing and
 * the change changing something (a withdrawal needs the consent given, a consent given again needs
 * it not given: false, or never asked), so that a repeated change records nothing and nothing is
 * announced twice; the item comes back with a failed condition, to tell the two apart.
 */
export function consentChangeUpdate(
  scope: GalleryScope,
  personId: string,
  consent: ParticipantConsent,
  change: ConsentChange,
): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: 'SET consents.#consent = :given, #change = :change',
      ConditionExpression: change.given
        ? 'attribute_exists(pk) AND NOT consents.#consent = :true'
        : 'attribute_exists(pk) AND consents.#consent = :true',
      ExpressionAttributeNames: { '#consent': consent, '#change': consentChangeAttribute(consent) },
      ExpressionAttributeValues: { ':given': change.given, ':change': change, ':true': true },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}
