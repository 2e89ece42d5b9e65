import { PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { deleteItems } from '#lib/platform/table/batches';
import { queryAll } from '#lib/platform/table/queries';
import { forEachPartitionPage } from '#lib/platform/table/query-pages';
import { parseItem } from '#lib/platform/table/item-schema';
import { emailKey } from '#lib/platform/email-address';
import { ORDER_ITEM_PREFIX, paymentKeys } from '#lib/payments/store/keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/**
 * Pointers from a participant to their orders (paymentKeys.orderOfParticipant): written with the
 * reservation, deleted with its redaction or removal, so that erasing one person reads their
 * orders alone. The order item stays the truth: a pointer only says where to look.
 */

/** Who an order's participant is, as far as pointers go. */
export interface ParticipantIdentity {
  personId?: string | null;
  email?: string | null;
  employeeId?: string | null;
}

/** The identities a participant is found by: the person ID, the address (hashed) and the employee ID it has. */
export function participantIdentities(participant: ParticipantIdentity): string[] {
  return [
    ...(participant.personId ? [paymentKeys.participantByPersonId(participant.personId)] : []),
    ...(participant.email ? [paymentKeys.participantByAddress(emailKey(participant.email))] : []),
    ...(participant.employeeId ? [paymentKeys.participantByEmployeeId(participant.employeeId)] : []),
  ];
}

function pointerKeys(scope: GalleryScope, orderId: string, participant: ParticipantIdentity) {
  return participantIdentities(participant).map((identity) =>
    paymentKeys.orderOfParticipant(scope.tenantId, scope.token, identity, orderId),
  );
}

/** The Puts of an order's pointers, for the transaction that reserves it (no condition: a resend writes the same items). */
export function orderPointerPuts(
  scope: GalleryScope,
  orderId: string,
  participant: ParticipantIdentity,
): TransactItem[] {
  return pointerKeys(scope, orderId, participant).map((key) => ({
    Put: { TableName: tableName, Item: { ...key, orderId } },
  }));
}

/** The Deletes of an order's pointers, for the transaction that removes the order. */
export function orderPointerDeletes(
  scope: GalleryScope,
  orderId: string,
  participant: ParticipantIdentity,
): TransactItem[] {
  return pointerKeys(scope, orderId, participant).map((key) => ({ Delete: { TableName: tableName, Key: key } }));
}

/** Deletes an order's pointers (once erasure has taken the participant out of the order). */
export function deleteOrderPointers(scope: GalleryScope, orderId: string, participant: ParticipantIdentity) {
  return deleteItems(pointerKeys(scope, orderId, participant));
}

/** The IDs of the orders pointed to by any of these identities: one Query per identity. */
export async function orderIdsOfParticipants(
  scope: GalleryScope,
  participants: readonly ParticipantIdentity[],
): Promise<string[]> {
  const identities = new Set(participants.flatMap(participantIdentities));
  const pointed = await Promise.all(
    [...identities].map((identity) =>
      queryAll({
        KeyConditionExpression: 'pk = :pk',
        ProjectionExpression: 'orderId',
        ExpressionAttributeValues: {
          ':pk': paymentKeys.orderOfParticipant(scope.tenantId, scope.token, identity, '').pk,
        },
      }),
    ),
  );
  return [...new Set(pointed.flat().map((item) => parseItem('order pointer', pointerSchema, item).orderId))];
}

const pointerSchema = v.object({ orderId: v.string() });

/** What the backfill reads of an order: its ID and its participant, while it still names one. */
const pointedOrderSchema = v.object({
  orderId: v.string(),
  person: v.optional(
    v.object({
      personId: v.string(),
      email: v.nullish(v.string()),
      employeeId: v.nullish(v.string()),
    }),
  ),
});

/**
 * The backfill of the pointers for orders reserved before they existed: pages through the
 * gallery's orders and writes the pointers of each that still names its participant (writing
 * one again changes nothing). Answers how many orders it pointed to.
 */
export async function pointOrdersToParticipants(scope: GalleryScope, pageSize = 100): Promise<number> {
  let pointedTo = 0;
  await forEachPartitionPage(
    paymentKeys.ordersOfGallery(scope.tenantId, scope.token),
    pageSize,
    async (items) => {
      for (const order of items.map((item) => parseItem('order', pointedOrderSchema, item))) {
        if (!order.person) continue;
        for (const key of pointerKeys(scope, order.orderId, order.person))
          await db.send(new PutCommand({ TableName: tableName, Item: { ...key, orderId: order.orderId } }));
        pointedTo += 1;
      }
    },
    { skPrefix: ORDER_ITEM_PREFIX, ProjectionExpression: 'orderId, person' },
  );
  return pointedTo;
}
