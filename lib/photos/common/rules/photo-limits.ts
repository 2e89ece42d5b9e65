import { MAX_WHOLE_OBJECT_BYTES } from '#lib/platform/byte-sizes';

/** The largest photo object ingest reads: the most a function reads whole. */
export const MAX_PHOTO_OBJECT_BYTES = MAX_WHOLE_OBJECT_BYTES;

/**
 * Files in one request for upload URLs, and uploads completed or aborted in one request
 * (POST …/uploads, POST …/uploads/complete): 50 multipart uploads of 13 presigned part URLs
 * each keep the answer far below Lambda's 6 MB.
 */
export const MAX_FILES_PER_UPLOAD_REQUEST = 50;
