import { retainQueuedGallery } from '#lib/privacy/retain-queued-galleries';
import { sqsBatch } from '#lib/http/triggered';

/** The retention queue's worker: each message one gallery's retention, one after another; a failed gallery comes back later, alone. */
export const handler = sqsBatch((record) => retainQueuedGallery(record), { inParallel: false });
