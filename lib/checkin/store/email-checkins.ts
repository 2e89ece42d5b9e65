import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { checkinKeys } from '#lib/checkin/store/keys';
import { emailKey } from '#lib/platform/email-address';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/** How often one email address checked in to a gallery for free: one counter per address, by a hash of it. */

/** Counts one more free check-in of an email address in the gallery, refused once it made `limit`. */
export function emailCheckinCount(scope: GalleryScope, email: string, limit: number): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: checkinKeys.emailCheckins(scope.tenantId, scope.token, emailKey(email)),
      UpdateExpression: 'ADD checkins :one',
      ConditionExpression: 'attribute_not_exists(checkins) OR checkins < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': limit },
    },
  };
}

/** The delete of an email address's count of free check-ins, for the transaction that erases its person. */
export function emailCheckinsDeletion(scope: GalleryScope, email: string): TransactItem {
  return {
    Delete: { TableName: tableName, Key: checkinKeys.emailCheckins(scope.tenantId, scope.token, emailKey(email)) },
  };
}
