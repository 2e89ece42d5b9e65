import type { S3Event } from 'aws-lambda';
import { logger, reportFailure } from '#lib/platform/logger';
import { type IngestOutcome, ingestPhotoObject } from '#lib/photos/sorting/ingest-photo';
import { triggered } from '#lib/http/triggered';

/** Outcomes someone should look at: a key or object that should not be there. */
const WARNED: readonly IngestOutcome[] = ['not_a_photo_key', 'gallery_not_found', 'person_not_found', 'too_large'];

/**
 * S3 ObjectCreated events under `photos/`: each object becomes a photo of the person its key
 * names (deleted when that person does not exist), or, in a gallery's inbox, is sorted to a
 * person by the shoot's camera cards (an object larger than any camera's photo is not read: it
 * is unassigned as too_large, with a warning). A failure throws, so Lambda's retries of the asynchronous invocation apply; what is
 * thrown carries only the error's name (the key holds the gallery token, the error may hold items).
 */
export const handler = triggered(async (event: S3Event): Promise<void> => {
  for (const record of event.Records) {
    if (!record.eventName.startsWith('ObjectCreated')) continue;
    // Event keys are URL-encoded, with + for spaces.
    const objectKey = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const upload = {
      objectKey,
      versionId: record.s3.object.versionId,
      uploadedAt: record.eventTime,
      size: record.s3.object.size,
    };
    const outcome = await ingestPhotoObject(upload).catch((error: unknown) => {
      throw reportFailure('photo object not ingested', error);
    });
    const log = WARNED.includes(outcome) ? logger.warn : logger.info;
    log('photo object ingested', { outcome, objectSize: record.s3.object.size });
  }
});
