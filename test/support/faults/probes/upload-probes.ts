/**
 * Probes of the upload endpoints (API key): listing the inbox, asking for a multipart upload
 * (the service starts it in S3) and completing one whose parts were sent, settled the way the
 * photos command does it: the same request again after a failure.
 */
import { inboxObjectKey } from '#lib/platform/media-keys';
import { mediaObjectMetadata } from '#lib/platform/media-bucket';
import type { Fixture } from '../galleries';
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
    const run = () => call(f, fill(template, f), { method: 'POST', headers: serverHeaders(), body: { files: [LARGE_FILE] } });
    const expectSuccess = async (outcome: Awaited<ReturnType<typeof run>>) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      expect(answer.body.uploads).toEqual([expect.objectContaining({ path: LARGE_FILE.path, kind: 'multipart', parts: [expect.anything(), expect.anything()] })]);
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};

/** Starts a multipart upload of one small file's worth of parts through the API and sends its parts. */
async function sentParts(f: Fixture, token: string) {
  const plan = answerOf(await call(f, `/groupshoot/${token}/uploads`, { method: 'POST', headers: serverHeaders(), body: { partSize: 5 * MEBIBYTE, files: [{ path: 'cam-b/large.jpg', size: 5 * MEBIBYTE + 10 }] } }));
  const [upload] = plan.body.uploads;
  const parts = [];
  for (const part of upload.parts as { partNumber: number; size: number; url: string }[]) {
    const response = await fetch(part.url, { method: 'PUT', body: Buffer.alloc(part.size, 1) });
    parts.push({ partNumber: part.partNumber, etag: response.headers.get('etag')! });
  }
  return { path: 'cam-b/large.jpg', uploadId: upload.uploadId as string, action: 'complete', parts };
}

export const completeUploadProbe: ProbeSpec = {
  label: 'a multipart upload completed',
  touches: S3_AND_TABLE,
  async prepare(f, template) {
    const completion = await sentParts(f, f.token);
    const run = () => call(f, fill(template, f), { method: 'POST', headers: serverHeaders(), body: { files: [completion] } });
    const expectSuccess = async (outcome: Awaited<ReturnType<typeof run>>) => {
      const answer = answerOf(outcome);
      expect(answer.status).toBe(200);
      // Completed now, or by an attempt whose answer was lost: either way the object is there.
      expect(answer.body.completed.length + answer.body.failed.length).toBe(1);
      expect(await mediaObjectMetadata(inboxObjectKey({ tenantId: f.tenantId, token: f.token, path: completion.path }))).toEqual({});
    };
    return { run, expectSuccess, settle: retryOnFailure(run, expectSuccess) };
  },
};
