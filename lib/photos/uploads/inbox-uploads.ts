import { now } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import { inboxObjectKey, inboxPrefix } from '#lib/platform/media-keys';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import {
  type ObjectMetadata,
  abortMultipartUpload,
  completeMultipartUpload,
  listObjectPage,
  multipartRefusalOf,
  presignObjectPut,
  presignPartPut,
  signedPutHeaders,
  startMultipartUpload,
} from '#lib/photos/uploads/adapters/inbox-storage';
import {
  INBOX_PAGE,
  UPLOAD_CONTENT_TYPE,
  UPLOAD_URL_TTL_SECONDS,
  decodeInboxCursor,
  encodeInboxCursor,
  partSizes,
} from '#lib/photos/uploads/rules/inbox';
import {
  type CompleteUploadsResult,
  type InboxPage,
  type UploadFileInput,
  type UploadPlan,
  parseCompleteUploadsRequest,
  parseUploadRequest,
} from '#lib/photos/uploads/upload-schemas';

/**
 * Uploads to a gallery's inbox with the API key instead of AWS credentials (docs/photos.md):
 * the service presigns the PUTs and runs the multipart calls. The tenant is always the API
 * key's; the gallery must be one of its own (else gallery_not_found); every object key is built
 * here from those two and a validated path, so no request can reach another inbox.
 */

/** S3 calls of one request at the same time (one per file). */
const CALLS_IN_FLIGHT = 8;

async function inboxOf(tenant: Tenant, token: string | undefined) {
  const { gallery } = await loadGroupShootGallery(tenant.tenantId, token);
  return {
    token: gallery.token,
    keyOf: (path: string) => inboxObjectKey({ tenantId: tenant.tenantId, token: gallery.token, path }),
  };
}

/** S3 failures other than a refusal: nothing was kept, the caller retries. */
async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (multipartRefusalOf(error)) throw error;
    throw new DomainError('media_storage_unavailable');
  }
}

function metadataOf(file: UploadFileInput): ObjectMetadata {
  const metadata: ObjectMetadata = {};
  if (file.capturedAt) metadata['captured-at'] = file.capturedAt;
  if (file.camera) metadata.camera = file.camera;
  return metadata;
}

/**
 * Presigned upload URLs for each file, valid UPLOAD_URL_TTL_SECONDS: one PUT for a file up to
 * `partSize`, else a multipart upload started here with presigned URLs for its parts. Each URL
 * takes exactly the declared size, and the single PUT's type and capture metadata are signed in.
 * The gallery is checked before the body: its refusals come first, as on the other routes.
 */
export async function createInboxUploads(
  tenant: Tenant,
  token: string | undefined,
  body: unknown,
): Promise<ResultMembers<typeof UploadPlan>> {
  const inbox = await inboxOf(tenant, token);
  const input = parseUploadRequest(body);
  const expiresAtMs = (Math.floor(now() / 1000) + UPLOAD_URL_TTL_SECONDS) * 1000;
  const expiresIn = Math.round((expiresAtMs - now()) / 1000);
  const uploads = await mapWithConcurrency(input.files, CALLS_IN_FLIGHT, async (file) => {
    const key = inbox.keyOf(file.path);
    const metadata = metadataOf(file);
    const sizes = partSizes(file.size, input.partSize);
    if (sizes.length === 1) {
      const url = await storageCall(() => presignObjectPut(key, file.size, UPLOAD_CONTENT_TYPE, metadata, expiresIn));
      return {
        path: file.path,
        kind: 'single' as const,
        url,
        headers: signedPutHeaders(UPLOAD_CONTENT_TYPE, metadata),
      };
    }
    const uploadId = await storageCall(() => startMultipartUpload(key, UPLOAD_CONTENT_TYPE, metadata));
    const parts = await Promise.all(
      sizes.map(async (size, index) => ({
        partNumber: index + 1,
        size,
        url: await storageCall(() => presignPartPut(key, uploadId, index + 1, size, expiresIn)),
      })),
    );
    return { path: file.path, kind: 'multipart' as const, uploadId, parts };
  });
  return { galleryToken: inbox.token, urlsExpireAt: new Date(expiresAtMs).toISOString(), uploads };
}

/**
 * Completes or aborts multipart uploads of the gallery's inbox. A refusal of one upload (no such
 * upload of this path, parts that do not fit) is that file's outcome in `failed`, not the request's.
 */
export async function completeInboxUploads(
  tenant: Tenant,
  token: string | undefined,
  body: unknown,
): Promise<ResultMembers<typeof CompleteUploadsResult>> {
  const inbox = await inboxOf(tenant, token);
  const input = parseCompleteUploadsRequest(body);
  const result: ResultMembers<typeof CompleteUploadsResult> = {
    galleryToken: inbox.token,
    completed: [],
    aborted: [],
    failed: [],
  };
  await mapWithConcurrency(input.files, CALLS_IN_FLIGHT, async (file) => {
    const key = inbox.keyOf(file.path);
    try {
      if (file.action === 'complete') {
        await storageCall(() => completeMultipartUpload(key, file.uploadId, file.parts));
        result.completed.push(file.path);
      } else {
        await storageCall(() => abortMultipartUpload(key, file.uploadId));
        result.aborted.push(file.path);
      }
    } catch (error) {
      const reason = multipartRefusalOf(error);
      if (!reason) throw error;
      result.failed.push({ path: file.path, reason, message: REFUSAL_MESSAGES[reason] });
    }
  });
  const order = new Map(input.files.map((file, index) => [file.path, index]));
  const byRequest = (a: string, b: string) => order.get(a)! - order.get(b)!;
  result.completed.sort(byRequest);
  result.aborted.sort(byRequest);
  result.failed.sort((a, b) => byRequest(a.path, b.path));
  return result;
}

const REFUSAL_MESSAGES = {
  upload_not_found:
    'No multipart upload with this uploadId for this path: it was completed or aborted already, or never started.',
  invalid_parts:
    'The parts do not fit the upload: a part number without its part, a wrong ETag, or a part below 5 MiB before the last.',
} as const;

/** A page of the gallery's inbox: each file's path below the inbox and its size, in path order. */
export async function listInboxFiles(
  tenant: Tenant,
  token: string | undefined,
  query: Record<string, string>,
): Promise<ResultMembers<typeof InboxPage>> {
  const inbox = await inboxOf(tenant, token);
  const limit =
    query.limit === undefined ? INBOX_PAGE.defaultLimit : /^\d{1,4}$/.test(query.limit) ? Number(query.limit) : NaN;
  if (!(limit >= 1 && limit <= INBOX_PAGE.maxLimit)) {
    throw new DomainError('invalid_parameter', `limit must be a whole number from 1 to ${INBOX_PAGE.maxLimit}.`, {
      parameter: 'limit',
    });
  }
  const after = query.cursor === undefined ? undefined : decodeInboxCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined)
    throw new DomainError('invalid_parameter', 'cursor is not a cursor of this listing.', { parameter: 'cursor' });
  const prefix = inboxPrefix(tenant.tenantId, inbox.token);
  const page = await storageCall(() =>
    listObjectPage(prefix, after === undefined ? undefined : inbox.keyOf(after), limit),
  );
  const files = page.objects.map((object) => ({ path: object.key.slice(prefix.length), size: object.size }));
  const last = files.at(-1)?.path;
  return {
    galleryToken: inbox.token,
    files,
    nextCursor: page.truncated && last !== undefined ? encodeInboxCursor(last) : null,
  };
}
