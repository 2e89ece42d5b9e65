import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { conditionalWrite } from '#lib/platform/table/conditional-writes';
import { personKeys } from '#lib/persons/store/keys';
import { fromPersonItem } from '#lib/persons/store/persons';
import * as v from 'valibot';
import { parseItem } from '#lib/platform/table/item-schema';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { PHOTO_NOTICE_CLAIM_MS, type PhotoNoticeState } from '#lib/persons/rules/photo-notice-state';

/**
 * The photo-ready email's state on the person item (docs/photos.md#photo-ready-emails): a claim
 * (`photoNoticeClaimedAt`, ms) while a sender sends, then `photoNoticeSentAt` (or
 * `photoNoticeRejectedAt`) for good. Every write is conditional, so of two senders only one
 * holds the claim, and a person erased meanwhile is not written back as a stub. They name no
 * attribute but the keys and PHOTO_NOTICE_ATTRIBUTES: IAM allows the sender no other.
 */

/**
 * One conditional update of the person's notice state. A condition that failed is another
 * sender's doing, or this write's own resend after a lost answer; the two are not told apart
 * (no item comes back), and the claim's lapse covers the second.
 */
function updateNotice(
  scope: GalleryScope,
  personId: string,
  update: { UpdateExpression: string; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> },
): Promise<boolean> {
  const key = personKeys.person(scope.tenantId, scope.token, personId);
  return conditionalWrite(
    () => db.send(new UpdateCommand({ TableName: tableName, Key: key, ...update })),
    () => false,
  );
}

/** The notice's state on the person's item: a claim (ms), then its sending or rejection. */
const noticeStateSchema = v.object({
  photoNoticeClaimedAt: v.optional(v.number()),
  photoNoticeSentAt: v.optional(v.string()),
  photoNoticeRejectedAt: v.optional(v.string()),
});

/** The person with the notice's state, read consistently (a claim just written must be seen); undefined when erased. */
export async function getNoticeRecipient(
  scope: GalleryScope,
  personId: string,
): Promise<{ person: Person; state: PhotoNoticeState } | undefined> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      ConsistentRead: true,
    }),
  );
  if (!Item) return undefined;
  const notice = parseItem('person', noticeStateSchema, Item);
  const state: PhotoNoticeState = {
    ...(notice.photoNoticeClaimedAt === undefined ? {} : { claimedAt: notice.photoNoticeClaimedAt }),
    ...(notice.photoNoticeSentAt === undefined ? {} : { sentAt: notice.photoNoticeSentAt }),
    ...(notice.photoNoticeRejectedAt === undefined ? {} : { rejectedAt: notice.photoNoticeRejectedAt }),
  };
  return { person: fromPersonItem(Item), state };
}

/**
 * Claims the person's notice at `at` (ms): only while it is neither sent nor rejected and holds no
 * claim younger than PHOTO_NOTICE_CLAIM_MS, and while the person consents. False when another sender got
 * there first, or the consent was withdrawn meanwhile.
 */
export async function claimPhotoNotice(scope: GalleryScope, personId: string, at: number): Promise<boolean> {
  return updateNotice(scope, personId, {
    UpdateExpression: 'SET photoNoticeClaimedAt = :at',
    ConditionExpression:
      'attribute_exists(pk) AND attribute_not_exists(photoNoticeSentAt) AND attribute_not_exists(photoNoticeRejectedAt) ' +
      'AND (attribute_not_exists(photoNoticeClaimedAt) OR photoNoticeClaimedAt < :lapsed) ' +
      // A withdrawal between the sender's read and its claim stops the email (the record is tried again and finds no consent).
      'AND consents.notificationConsent = :true',
    ExpressionAttributeValues: { ':at': at, ':lapsed': at - PHOTO_NOTICE_CLAIM_MS, ':true': true },
  });
}

/**
 * Ends the claim made at `claimedAt` for good: the email was sent, or refused for good. False when
 * the claim was no longer this sender's (it lapsed and another took it over).
 */
export async function completePhotoNotice(
  scope: GalleryScope,
  personId: string,
  claimedAt: number,
  outcome: 'sent' | 'rejected',
  at: string,
): Promise<boolean> {
  return updateNotice(scope, personId, {
    UpdateExpression: `SET ${outcome === 'sent' ? 'photoNoticeSentAt' : 'photoNoticeRejectedAt'} = :at REMOVE photoNoticeClaimedAt`,
    ConditionExpression: 'photoNoticeClaimedAt = :claimedAt',
    ExpressionAttributeValues: { ':at': at, ':claimedAt': claimedAt },
  });
}

/** Gives the claim made at `claimedAt` back after a failed send, so that the retry may send. */
export async function releasePhotoNotice(scope: GalleryScope, personId: string, claimedAt: number): Promise<boolean> {
  return updateNotice(scope, personId, {
    UpdateExpression: 'REMOVE photoNoticeClaimedAt',
    ConditionExpression: 'photoNoticeClaimedAt = :claimedAt',
    ExpressionAttributeValues: { ':claimedAt': claimedAt },
  });
}
