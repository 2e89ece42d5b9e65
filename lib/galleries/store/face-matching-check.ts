import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { galleryKeys } from '#lib/galleries/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/**
 * A check, for another feature's transaction, that the gallery still matches faces: it asks for
 * face consent and its mode is not `off` (faceMatchingOf in rules/face-matching.ts, as a
 * condition on the stored item). Faces' reference-face write carries it, so that a write
 * racing the switch-off fails instead of leaving a descriptor behind.
 */
export function faceMatchingCheck(scope: GalleryScope): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName,
      Key: galleryKeys.gallery(scope.tenantId, scope.token),
      ConditionExpression:
        'attribute_exists(pk) AND granularConsents.face = :true AND (attribute_not_exists(faceMatching) OR attribute_type(faceMatching, :null) OR faceMatching <> :off)',
      ExpressionAttributeValues: { ':true': true, ':off': 'off', ':null': 'NULL' },
    },
  };
}
