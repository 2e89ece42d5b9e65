import type { ChangeRecord } from '#lib/events/adapters/stream-records';
import { PERSON_ITEM_PREFIX, galleryOfPersonItem } from '#lib/persons/store/keys';

/** Person items as the table's stream shows them (lib/events/adapters/stream-records.ts). */

/** A person item that a record inserts, with its gallery; undefined for any other record. */
export function insertedPersonOfRecord(
  record: ChangeRecord,
): { scope: { tenantId: string; token: string }; item: Record<string, unknown> } | undefined {
  const image = record.newImage;
  if (
    record.eventName !== 'INSERT' ||
    !image ||
    typeof image.pk !== 'string' ||
    typeof image.sk !== 'string' ||
    !image.sk.startsWith(PERSON_ITEM_PREFIX)
  )
    return undefined;
  const scope = galleryOfPersonItem(image.pk);
  return scope ? { scope, item: image } : undefined;
}
