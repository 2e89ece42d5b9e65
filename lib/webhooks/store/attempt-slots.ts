import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { webhookKeys } from '#lib/webhooks/store/keys';
import { queryAll } from '#lib/platform/table/queries';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import { TTL_ATTRIBUTE } from '#lib/platform/table/table-definition';
import {
  ATTEMPT_SLOT_HOLD_MS,
  type HeldSlot,
  SLOT_PUTS_PER_READ,
  freeSlotsFor,
  slotFreesSoon,
} from '#lib/webhooks/rules/delivery-capacity';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * A tenant's webhook attempt slots (webhookKeys.webhookAttemptSlot): an item per slot in use, put on
 * condition that the slot is free or held past its time, so that no two attempts hold one slot
 * (rules/delivery-capacity.ts). Given back by deleting it, on condition that it is still ours.
 */

export interface AttemptSlot {
  tenantId: string;
  slot: number;
  holder: string;
}

const attemptSlotItemSchema = v.object({ slot: v.number(), subscriptionId: v.string(), heldUntil: v.number() });

/** The slot an item holds, and until when; a CorruptItemError when it holds none. */
export function fromAttemptSlotItem(stored: StoredItem): HeldSlot {
  const item = parseItem('webhook attempt slot', attemptSlotItemSchema, stored);
  return { slot: item.slot, subscriptionId: item.subscriptionId, heldUntil: item.heldUntil };
}

/** A slot taken, or none, and then whether one in the way is likely to free soon (rules/delivery-capacity.ts). */
export type SlotAnswer = { slot: AttemptSlot } | { slot?: undefined; freesSoon: boolean };

/** Takes a free slot of the tenant for one attempt of the subscription; none when its share is in flight. */
export async function takeAttemptSlot(tenantId: string, subscriptionId: string, at: number): Promise<SlotAnswer> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': webhookKeys.webhookAttemptSlotsOfTenant(tenantId) },
    ConsistentRead: true,
  });
  const held: HeldSlot[] = items.map(fromAttemptSlotItem);
  const holder = randomUUID();
  const heldUntil = at + ATTEMPT_SLOT_HOLD_MS;
  const free = freeSlotsFor(held, subscriptionId, at);
  // Only a few per read: attempts starting together would otherwise race through every free slot.
  for (const slot of free.slice(0, SLOT_PUTS_PER_READ)) {
    try {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...webhookKeys.webhookAttemptSlot(tenantId, slot),
            slot,
            subscriptionId,
            holder,
            heldUntil,
            [TTL_ATTRIBUTE]: Math.ceil(heldUntil / 1000) + 3600,
          },
          ConditionExpression: 'attribute_not_exists(pk) OR heldUntil <= :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return { slot: { tenantId, slot, holder } };
    } catch (error) {
      // Another attempt took it since the read: try the next.
      if (!isConditionFailure(error)) throw error;
    }
  }
  // Slots lost to attempts that just started free soon too.
  return { freesSoon: free.length > 0 || slotFreesSoon(held, subscriptionId, at) };
}

/** Gives a slot back, unless it was held past its time and another attempt has it now. */
export async function releaseAttemptSlot({ tenantId, slot, holder }: AttemptSlot): Promise<void> {
  try {
    await db.send(
      new DeleteCommand({
        TableName: tableName,
        Key: webhookKeys.webhookAttemptSlot(tenantId, slot),
        ConditionExpression: 'holder = :holder',
        ExpressionAttributeValues: { ':holder': holder },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
