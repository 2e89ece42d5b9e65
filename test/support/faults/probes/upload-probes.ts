/**
 * Probes of the upload endpoints (API key): listing the inbox, asking for a multipart upload
 * (the service starts it in S3) and aborting one, settled the way the photos command does it:
 * the same request again after a failure.
 */
import { inboxObjectKey } from '#lib/platform/media-keys';
import { mediaObjectMetadata } from '#lib/platform/media-bucket';
import { answerOf, call, serverHeaders } from '../requests';
import { type ProbeSpec, fill, retryOnFailure } from './probe';

const S3_AND_TABLE = { dynamodb: true, s3: true, stripe: false, transactions: false };
const MEBIBYTE = 1024 * 1024;
/** Two parts of the default 8 MiB part size. */
const LARGE_FILE = { path: 'cam-a/large.jpg', size: 9 * MEBIBYTE };

export const inboxListingProbe: ProbeSpec = {
  label: 'GET',
  touches: S3_AND_TABLE,
  async prepare(f, template) {
    const run = () => call(f, fill(template, f), { headers: serverHeaders() });
    const expectSuccess = async (outcome: Awaited<ReturnType<typeof run>>) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(expect.objectContaining({ galleryToken: f.token, files: [], nextCursor: null }));
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};

export const multipartUploadProbe: ProbeSpec = {
  label: 'a multipart upload started',
  touches: S3_AND_TABLE,
  async prepare(f, template) {
    const run = () =>
      call(f, fill(template, f), { method: 'POST', headers: serverHeaders(), body: { files: [LARGE_FILE] } });
    const expectSuccess = async (outcome: Awaited<ReturnType<typeof run>>) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      expect(answer.body.uploads).toEqual([
        expect.objectContaining({
          path: LARGE_FILE.path,
          kind: 'multipart',
          parts: [expect.anything(), expect.anything()],
        }),
      ]);
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};

/**
 * Aborting, not completing: a repeat of a completion is refused per file by S3 (NoSuchUpload),
 * but the local S3 server fails it as a whole, and the matrix repeats every request.
 */
export const abortUploadProbe: ProbeSpec = {
  label: 'a multipart upload aborted',
  touches: S3_AND_TABLE,
  async prepare(f, template) {
    const plan = answerOf(
      await call(f, `/groupshoot/${f.token}/uploads`, {
        method: 'POST',
        headers: serverHeaders(),
        body: { files: [LARGE_FILE] },
      }),
    );
    const abort = { path: LARGE_FILE.path, uploadId: plan.body.uploads[0].uploadId as string, action: 'abort' };
    const run = () =>
      call(f, fill(template, f), { method: 'POST', headers: serverHeaders(), body: { files: [abort] } });
    const expectSuccess = async (outcome: Awaited<ReturnType<typeof run>>) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      // Aborted now, or by an attempt whose answer was lost (S3 then knows the upload no more).
      expect(answer.body.aborted.length + answer.body.failed.length).toBe(1);
      await expect(
        mediaObjectMetadata(inboxObjectKey({ tenantId: f.tenantId, token: f.token, path: LARGE_FILE.path })),
      ).rejects.toThrow();
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};
