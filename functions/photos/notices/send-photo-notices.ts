import { changeRecordsOf } from '#lib/events/adapters/stream-records';
import { photoNoticeSender } from '#lib/photos/notices/send-photo-notices';
import { streamBatch } from '#lib/http/triggered';

/**
 * The table's stream (filtered by the stack to photos.assigned event items, new or counted up)
 * to photo-ready emails, one record after another. The first record that fails stops the batch,
 * so it and the records after it come again; the ones before it are done.
 */
export const handler = streamBatch(() => {
  const send = photoNoticeSender();
  return async (record) => {
    for (const change of changeRecordsOf({ Records: [record] })) await send(change);
  };
});
