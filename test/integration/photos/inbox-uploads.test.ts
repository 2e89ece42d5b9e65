import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { inboxObjectKey } from '#lib/platform/media-keys';
import { MAX_FILES_PER_UPLOAD_REQUEST } from '#lib/photos/common/rules/photo-limits';
import { cardJpeg, portraitJpeg } from '../../../scripts/samples/synthetic-shoot';
import { type ApiAnswer, useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { objectCreatedEvent, testS3 } from '../../support/media';

const api = useLocalApi();
const MEBIBYTE = 1024 * 1024;

interface PlannedPart {
  partNumber: number;
  size: number;
  url: string;
}

function expectError(answer: ApiAnswer, status: number, error: string, field?: string): void {
  expect({ status: answer.status, error: answer.body.error, field: answer.body.field }).toEqual({
    status,
    error,
    field,
  });
  expect(answer.body).toEqual(
    expect.objectContaining({ ok: false, message: expect.any(String), requestId: answer.headers.get('x-request-id') }),
  );
}

/** PUTs each part's bytes (taken in order from `bytes`) to its presigned URL; answers the parts with their ETags. */
async function sendParts(parts: PlannedPart[], bytes: Buffer) {
  let offset = 0;
  const sent = [];
  for (const part of parts) {
    const response = await fetch(part.url, { method: 'PUT', body: bytes.subarray(offset, offset + part.size) });
    expect(response.status).toBe(200);
    offset += part.size;
    sent.push({ partNumber: part.partNumber, etag: response.headers.get('etag')! });
  }
  return sent;
}

describe.each([
  ['primary', (token: string) => `/group-shoot/checkin/${token}/uploads`],
  ['alias', (token: string) => `/groupshoot/${token}/uploads`],
])('uploads into the inbox with the API key (%s paths)', (_variant, uploadsPath) => {
  let studio: TestTenant;
  const key = (path: string) => inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path });
  const head = (path: string) =>
    testS3.send(new HeadObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key(path) }));
  const ask = (body: unknown) =>
    api.call(uploadsPath(studio.token), { method: 'POST', headers: studio.serverHeaders, body });
  const complete = (body: unknown) =>
    api.call(`${uploadsPath(studio.token)}/complete`, { method: 'POST', headers: studio.serverHeaders, body });

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('hands out a presigned PUT for a small photo with its type, size and capture metadata signed in, which stores it in the inbox', async () => {
    // Prepare
    const bytes = Buffer.alloc(2048, 3);
    // Act
    const answer = await ask({
      files: [
        {
          path: 'cam-a/IMG_0001.JPG',
          size: bytes.length,
          capturedAt: '2026-11-20T10:00:01.120Z',
          camera: 'Canon EOS R5 #0123',
        },
      ],
    });
    const [upload] = answer.body.uploads;
    const put = await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: bytes });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      requestId: expect.any(String),
      galleryToken: studio.token,
      urlsExpireAt: expect.any(String),
      uploads: [expect.objectContaining({ path: 'cam-a/IMG_0001.JPG', kind: 'single' })],
    });
    expect(Date.parse(answer.body.urlsExpireAt) - Date.now()).toBeGreaterThan(3500_000);
    expect(upload.headers).toEqual({
      'Content-Type': 'image/jpeg',
      'x-amz-meta-captured-at': '2026-11-20T10:00:01.120Z',
      'x-amz-meta-camera': 'Canon EOS R5 #0123',
    });
    const url = new URL(upload.url);
    expect(decodeURIComponent(url.pathname)).toBe(`/${process.env.MEDIA_BUCKET}/${key('cam-a/IMG_0001.JPG')}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe(
      'content-length;content-type;host;x-amz-meta-camera;x-amz-meta-captured-at',
    );
    expect([...url.searchParams.keys()].filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
    expect(put.status).toBe(200);
    const stored = await head('cam-a/IMG_0001.JPG');
    expect({ type: stored.ContentType, length: stored.ContentLength, metadata: stored.Metadata }).toEqual({
      type: 'image/jpeg',
      length: 2048,
      metadata: { 'captured-at': '2026-11-20T10:00:01.120Z', camera: 'Canon EOS R5 #0123' },
    });
  });

  it('starts a multipart upload for a large photo, with a presigned URL per part, and completes it from the ETags', async () => {
    // Prepare
    const bytes = Buffer.alloc(11 * MEBIBYTE, 9);
    // Act
    const answer = await ask({
      partSize: 5 * MEBIBYTE,
      files: [{ path: 'big/large.jpg', size: bytes.length, camera: 'Sony' }],
    });
    const [upload] = answer.body.uploads;
    const parts = await sendParts(upload.parts, bytes);
    const completed = await complete({
      files: [{ path: 'big/large.jpg', uploadId: upload.uploadId, action: 'complete', parts: parts.reverse() }],
    });
    // Assess
    expect(upload).toEqual({
      path: 'big/large.jpg',
      kind: 'multipart',
      uploadId: expect.any(String),
      parts: [1, 2, 3].map((partNumber) => expect.objectContaining({ partNumber })),
    });
    expect(upload.parts.map((part: PlannedPart) => part.size)).toEqual([5 * MEBIBYTE, 5 * MEBIBYTE, MEBIBYTE]);
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({
      ok: true,
      requestId: expect.any(String),
      galleryToken: studio.token,
      completed: ['big/large.jpg'],
      aborted: [],
      failed: [],
    });
    const stored = await head('big/large.jpg');
    expect({ type: stored.ContentType, length: stored.ContentLength, metadata: stored.Metadata }).toEqual({
      type: 'image/jpeg',
      length: bytes.length,
      metadata: { camera: 'Sony' },
    });
  });

  // The local S3 server neither aborts uploads nor checks parts and ETags on completion, so S3's
  // refusals (NoSuchUpload, InvalidPart) are held by the unit test of multipartRefusalOf.
  it('aborts a multipart upload', async () => {
    // Prepare
    const plan = await ask({ files: [{ path: 'big/aborted.jpg', size: 9 * MEBIBYTE }] });
    const [upload] = plan.body.uploads;
    // Act
    const abort = await complete({ files: [{ path: 'big/aborted.jpg', uploadId: upload.uploadId, action: 'abort' }] });
    // Assess
    expect(abort.status).toBe(200);
    expect(abort.body).toEqual(expect.objectContaining({ completed: [], aborted: ['big/aborted.jpg'], failed: [] }));
    await expect(head('big/aborted.jpg')).rejects.toThrow();
  });

  it('lists the inbox with sizes, page by page', async () => {
    // Act
    const first = await api.call(`${uploadsPath(studio.token)}?limit=1`, { headers: studio.serverHeaders });
    const rest = await api.call(`${uploadsPath(studio.token)}?cursor=${first.body.nextCursor}`, {
      headers: studio.serverHeaders,
    });
    // Assess
    expect(first.status).toBe(200);
    expect(first.body.files).toEqual([{ path: 'big/large.jpg', size: 11 * MEBIBYTE }]);
    expect(rest.body).toEqual(
      expect.objectContaining({ files: [{ path: 'cam-a/IMG_0001.JPG', size: 2048 }], nextCursor: null }),
    );
  });
});

describe('uploads: tenant isolation', () => {
  let studio: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    [studio, other] = await Promise.all([createTestTenant(), createTestTenant()]);
  });

  it.each([
    ['GET', ''],
    ['POST', ''],
    ['POST', '/complete'],
  ])("gives 404 gallery_not_found to another tenant's key for %s uploads%s", async (method, suffix) => {
    // Act
    const body =
      suffix === ''
        ? { files: [{ path: 'x.jpg', size: 10 }] }
        : { files: [{ path: 'x.jpg', uploadId: 'u', action: 'abort' }] };
    const answer = await api.call(`/groupshoot/${studio.token}/uploads${suffix}`, {
      method,
      headers: other.serverHeaders,
      body: method === 'POST' ? body : undefined,
    });
    // Assess
    expectError(answer, 404, 'gallery_not_found');
  });

  it("puts every upload under the key's own tenant, whatever the body says", async () => {
    // Act
    const answer = await api.call(`/groupshoot/${other.token}/uploads`, {
      method: 'POST',
      headers: other.serverHeaders,
      body: {
        tenantId: studio.tenant.tenantId,
        files: [
          { path: 'a.jpg', size: 10 },
          { path: 'b.jpg', size: 9 * MEBIBYTE },
        ],
      },
    });
    // Assess
    expect(answer.status).toBe(200);
    const urls = answer.body.uploads.flatMap((upload: { url?: string; parts?: PlannedPart[] }) =>
      upload.url ? [upload.url] : upload.parts!.map((part) => part.url),
    );
    expect(urls).toHaveLength(3);
    for (const url of urls)
      expect(decodeURIComponent(new URL(url).pathname)).toContain(
        `/photos/${other.tenant.tenantId}/${other.token}/inbox/`,
      );
  });
});

describe('uploads: bad input', () => {
  let studio: TestTenant;
  const file = (overrides: Record<string, unknown> = {}) => ({ path: 'cam/IMG_1.jpg', size: 100, ...overrides });

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it.each<[string, unknown, string, string | undefined]>([
    ['no files', {}, 'files_required', undefined],
    ['an empty list', { files: [] }, 'files_required', undefined],
    [
      'too many files',
      {
        files: Array.from({ length: MAX_FILES_PER_UPLOAD_REQUEST + 1 }, (_, index) =>
          file({ path: `IMG_${index}.jpg` }),
        ),
      },
      'too_many_files',
      undefined,
    ],
    ['a path that climbs out', { files: [file({ path: '../other/IMG_1.jpg' })] }, 'invalid_field', 'files[0].path'],
    ['an absolute path', { files: [file(), file({ path: '/IMG_1.jpg' })] }, 'invalid_field', 'files[1].path'],
    ['a control character', { files: [file({ path: 'cam/IMG\u0000.jpg' })] }, 'invalid_field', 'files[0].path'],
    ['a path too deep', { files: [file({ path: 'a/b/c/d/IMG_1.jpg' })] }, 'invalid_field', 'files[0].path'],
    ['a name that is no JPEG', { files: [file({ path: 'cam/IMG_1.png' })] }, 'invalid_field', 'files[0].path'],
    [
      'a path too long',
      { files: [file({ path: `${'a'.repeat(250)}/${'b'.repeat(250)}/${'c'.repeat(250)}/${'d'.repeat(250)}.jpg` })] },
      'invalid_field',
      'files[0].path',
    ],
    ['a file above the ingest cap', { files: [file({ size: 64 * MEBIBYTE + 1 })] }, 'invalid_field', 'files[0].size'],
    ['an empty file', { files: [file({ size: 0 })] }, 'invalid_field', 'files[0].size'],
    ['another content type', { files: [file({ contentType: 'image/png' })] }, 'invalid_field', 'files[0].contentType'],
    [
      'a capture time of another format',
      { files: [file({ capturedAt: '2026-11-20 10:00' })] },
      'invalid_field',
      'files[0].capturedAt',
    ],
    [
      'a camera that is no header text',
      { files: [file({ camera: 'Nikon Z 9\r\nx-amz-acl: public-read' })] },
      'invalid_field',
      'files[0].camera',
    ],
    ['a path twice', { files: [file(), file()] }, 'invalid_field', 'files'],
    ['a part size below S3 minimum', { partSize: MEBIBYTE, files: [file()] }, 'invalid_field', 'partSize'],
  ])('gives 400 for %s when asked for upload URLs', async (_case, body, error, field) => {
    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/uploads`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body,
    });
    // Assess
    expectError(answer, 400, error, field);
  });

  it.each<[string, unknown, string, string | undefined]>([
    ['no files', { files: [] }, 'files_required', undefined],
    [
      'another action',
      { files: [{ path: 'a.jpg', uploadId: 'u', action: 'restart' }] },
      'invalid_field',
      'files[0].action',
    ],
    [
      'a completion without parts',
      { files: [{ path: 'a.jpg', uploadId: 'u', action: 'complete', parts: [] }] },
      'invalid_field',
      'files[0].parts',
    ],
    [
      'a path that climbs out',
      { files: [{ path: '../a.jpg', uploadId: 'u', action: 'abort' }] },
      'invalid_field',
      'files[0].path',
    ],
  ])('gives 400 for %s when completing', async (_case, body, error, field) => {
    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/uploads/complete`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body,
    });
    // Assess
    expectError(answer, 400, error, field);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
    ['cursor=bm90LW91cnM', 'cursor'],
  ])('gives 400 invalid_parameter for %s when listing', async (query, parameter) => {
    const answer = await api.call(`/groupshoot/${studio.token}/uploads?${query}`, { headers: studio.serverHeaders });
    expectError(answer, 400, 'invalid_parameter');
    expect(answer.body.parameter).toBe(parameter);
  });
});

describe('uploads: ingest sorts what came through the API', () => {
  it("assigns a portrait uploaded after a person's card to that person, with the capture time it was sent with", async () => {
    // Prepare
    const studio = await createTestTenant();
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Carded Person' }] },
    });
    const person = imported.body.persons[0];
    const shots = [
      {
        path: 'cam/IMG_0001.jpg',
        bytes: await cardJpeg({ width: 1600, height: 1067, text: person.code, size: 0.3 }),
        capturedAt: '2026-11-20T10:00:01.000Z',
      },
      {
        path: 'cam/IMG_0002.jpg',
        bytes: await portraitJpeg({ width: 1600, height: 1067 }),
        capturedAt: '2026-11-20T10:00:02.000Z',
      },
    ];
    // Act
    const plan = await api.call(`/groupshoot/${studio.token}/uploads`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        files: shots.map((shot) => ({
          path: shot.path,
          size: shot.bytes.length,
          capturedAt: shot.capturedAt,
          camera: 'Test Camera',
        })),
      },
    });
    for (const [index, upload] of plan.body.uploads.entries()) {
      expect(
        (await fetch(upload.url, { method: 'PUT', headers: upload.headers, body: shots[index]!.bytes })).status,
      ).toBe(200);
    }
    for (const shot of shots)
      await ingestPhoto(
        objectCreatedEvent(inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path: shot.path })),
      );
    // Assess
    const photos = await api.call(`/groupshoot/${studio.token}/persons/${person.personId}/photos`, {
      headers: studio.serverHeaders,
    });
    expect(photos.body.photos).toEqual([
      expect.objectContaining({ fileName: 'IMG_0002.jpg', capturedAt: '2026-11-20T10:00:02.000Z' }),
    ]);
  }, 60_000);
});
