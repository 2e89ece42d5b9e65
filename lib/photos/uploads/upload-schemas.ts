import * as v from 'valibot';
import { DomainError, invalidField } from '#lib/platform/domain-error';
import { MAX_FILES_PER_UPLOAD_REQUEST, MAX_PHOTO_OBJECT_BYTES } from '#lib/photos/common/rules/photo-limits';
import { mebibytes } from '#lib/platform/byte-sizes';
import { requestId } from '#lib/platform/schema-parts';
import { isCaptureTime } from '#lib/photos/common/rules/capture-time';
import {
  CAMERA_PATTERN,
  INBOX_PATH_MAX_LENGTH,
  UPLOAD_CONTENT_TYPE,
  UPLOAD_PART_BYTES,
  isUploadablePath,
} from '#lib/photos/uploads/rules/inbox';

/** The documented bodies of uploads to a gallery's inbox: asking for upload URLs, completing uploads, listing the inbox. */

const PATH_MESSAGE = `path must be a JPEG's path below the inbox: at most 4 segments of letters, digits, ". _ -" and spaces, no "..", a .jpg or .jpeg name, at most ${INBOX_PATH_MAX_LENGTH} characters.`;

const InboxPath = v.pipe(
  v.string(PATH_MESSAGE),
  v.check(isUploadablePath, PATH_MESSAGE),
  v.description(
    'The path below the gallery\'s inbox, e.g. "cam-a/IMG_0001.JPG": up to 3 folders and a .jpg/.jpeg file name.',
  ),
);

const UploadFile = v.object({
  path: InboxPath,
  size: v.pipe(
    v.number('size must be a number of bytes.'),
    v.integer('size must be a whole number of bytes.'),
    v.minValue(1, 'size must be at least 1 byte.'),
    v.maxValue(
      MAX_PHOTO_OBJECT_BYTES,
      `size must be at most ${mebibytes(MAX_PHOTO_OBJECT_BYTES)}, the largest photo ingest reads.`,
    ),
    v.description("The file's exact size in bytes; the presigned URLs take exactly this many."),
  ),
  contentType: v.optional(
    v.pipe(
      v.literal(UPLOAD_CONTENT_TYPE, `contentType must be ${UPLOAD_CONTENT_TYPE}.`),
      v.description('Only JPEGs are taken.'),
    ),
  ),
  capturedAt: v.nullish(
    v.pipe(
      v.string('capturedAt must be a string.'),
      v.check(isCaptureTime, 'capturedAt must be ISO 8601 with milliseconds in UTC, e.g. 2026-11-20T10:00:01.120Z.'),
      v.description(
        "When the photo was taken, from its EXIF (DateTimeOriginal as written, no time zone applied). Sent as the object's captured-at metadata.",
      ),
    ),
  ),
  camera: v.nullish(
    v.pipe(
      v.string('camera must be a string.'),
      v.regex(CAMERA_PATTERN, 'camera must be 1 to 256 printable ASCII characters.'),
      v.description(
        "The camera, as `<Make> <Model> #<BodySerialNumber>` from EXIF. Sent as the object's camera metadata.",
      ),
    ),
  ),
});

/** Whether no path is named twice in a list of files. */
export function namesEachPathOnce<File>(files: File[]): boolean {
  return new Set(files.map((file) => (file as { path: string }).path)).size === files.length;
}

/** A list of 1 to MAX_FILES_PER_UPLOAD_REQUEST entries; the count is checked before any entry is parsed. */
function fileList<Entry extends v.GenericSchema>(entry: Entry) {
  return v.pipe(
    v.array(v.unknown(), 'files must be an array.'),
    v.minLength(1),
    v.maxLength(
      MAX_FILES_PER_UPLOAD_REQUEST,
      (issue) => `At most ${MAX_FILES_PER_UPLOAD_REQUEST} files per request; got ${issue.received}.`,
    ),
    v.array(entry),
    v.check(namesEachPathOnce, 'files must name each path once.'),
  );
}

export const UploadRequest = v.object({
  partSize: v.optional(
    v.pipe(
      v.number('partSize must be a number of bytes.'),
      v.integer('partSize must be a whole number of bytes.'),
      v.minValue(UPLOAD_PART_BYTES.min, `partSize must be at least ${mebibytes(UPLOAD_PART_BYTES.min)}.`),
      v.maxValue(UPLOAD_PART_BYTES.max, `partSize must be at most ${mebibytes(UPLOAD_PART_BYTES.max)}.`),
      v.description(
        `Files larger than this go up in parts of this size (default ${mebibytes(UPLOAD_PART_BYTES.default)}).`,
      ),
    ),
    UPLOAD_PART_BYTES.default,
  ),
  files: v.pipe(fileList(UploadFile), v.description(`1 to ${MAX_FILES_PER_UPLOAD_REQUEST} files, each path once.`)),
});

export type UploadInput = v.InferOutput<typeof UploadRequest>;
export type UploadFileInput = v.InferOutput<typeof UploadFile>;

const PresignedUrl = v.pipe(v.string(), v.description('Presigned S3 URL; PUT the bytes to it before urlsExpireAt.'));

const SingleUpload = v.object({
  path: v.string(),
  kind: v.literal('single'),
  url: PresignedUrl,
  headers: v.pipe(
    v.record(v.string(), v.string()),
    v.description(
      'Headers the PUT must carry exactly as given (they are signed): Content-Type and the capture metadata.',
    ),
  ),
});

const MultipartUpload = v.object({
  path: v.string(),
  kind: v.literal('multipart'),
  uploadId: v.pipe(v.string(), v.description('Names the upload in POST …/uploads/complete.')),
  parts: v.pipe(
    v.array(v.object({ partNumber: v.number(), size: v.number(), url: PresignedUrl })),
    v.description(
      "PUT each part's bytes (`size` of them, in order) to its URL and keep the ETag header of the answer.",
    ),
  ),
});

export const UploadPlan = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  urlsExpireAt: v.string(),
  uploads: v.pipe(
    v.array(v.variant('kind', [SingleUpload, MultipartUpload])),
    v.description('One per file, in the order of the request.'),
  ),
  requestId,
});

const UploadReference = {
  path: InboxPath,
  uploadId: v.pipe(
    v.string('uploadId must be a string.'),
    v.trim(),
    v.nonEmpty('uploadId must not be empty.'),
    v.maxLength(1024, 'uploadId must have at most 1024 characters.'),
  ),
};

const CompleteUpload = v.object({
  ...UploadReference,
  action: v.literal('complete', 'action must be complete or abort.'),
  parts: v.pipe(
    v.array(
      v.object({
        partNumber: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000)),
        etag: v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200)),
      }),
      'parts must be an array.',
    ),
    v.minLength(1, 'parts must list every part with its ETag.'),
    v.maxLength(10_000),
  ),
});

const AbortUpload = v.object({ ...UploadReference, action: v.literal('abort', 'action must be complete or abort.') });

export const CompleteUploadsRequest = v.object({
  files: v.pipe(
    fileList(v.variant('action', [CompleteUpload, AbortUpload], 'action must be complete or abort.')),
    v.description(
      `1 to ${MAX_FILES_PER_UPLOAD_REQUEST} multipart uploads, each path once: complete one with its parts' ETags, or abort it.`,
    ),
  ),
});

export type CompleteUploadsInput = v.InferOutput<typeof CompleteUploadsRequest>;

export const CompleteUploadsResult = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  completed: v.pipe(v.array(v.string()), v.description('The paths whose objects are now in the inbox.')),
  aborted: v.array(v.string()),
  failed: v.pipe(
    v.array(
      v.object({ path: v.string(), reason: v.picklist(['upload_not_found', 'invalid_parts']), message: v.string() }),
    ),
    v.description(
      'upload_not_found: no such upload of this path (completed or aborted already, or never started). invalid_parts: the parts or ETags do not fit the upload.',
    ),
  ),
  requestId,
});

export const InboxPage = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  files: v.pipe(
    v.array(v.object({ path: v.string(), size: v.number() })),
    v.description("The inbox's files in path order, with their sizes in bytes."),
  ),
  nextCursor: v.pipe(v.nullable(v.string()), v.description('The cursor of the next page; null on the last.')),
  requestId,
});

/** The field an issue is about, as the caller wrote it: `files[3].path`. */
function fieldOf(issue: v.BaseIssue<unknown>): string {
  return (
    (issue.path ?? []).reduce<string>(
      (field, item) =>
        typeof item.key === 'number'
          ? `${field}[${item.key}]`
          : field === ''
            ? String(item.key)
            : `${field}.${String(item.key)}`,
      '',
    ) || 'body'
  );
}

/** An uploads body, parsed: files_required, too_many_files, then invalid_field for the first member at fault. */
function parseFiles<Schema extends v.GenericSchema>(schema: Schema, body: unknown): v.InferOutput<Schema> {
  const result = v.safeParse(schema, body);
  if (result.success) return result.output;
  const [issue] = result.issues;
  const field = fieldOf(issue);
  if (field === 'files' && issue.type === 'max_length') throw new DomainError('too_many_files', issue.message);
  if (field === 'files' && issue.type !== 'check') throw new DomainError('files_required');
  throw invalidField(field, issue.message);
}

export function parseUploadRequest(body: unknown): UploadInput {
  return parseFiles(UploadRequest, body);
}

export function parseCompleteUploadsRequest(body: unknown): CompleteUploadsInput {
  return parseFiles(CompleteUploadsRequest, body);
}
