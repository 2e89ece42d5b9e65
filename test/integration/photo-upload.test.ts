import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { inboxObjectKey } from '#lib/platform/media-keys';
import { runPhotos } from '../../scripts/photos/run-photos';
import { uploadPolicy } from '../../scripts/photos/upload-policy';
import { LIVE_PROCESS_IDS, writeServerFile } from '../support/connection-files';
import { type TestTenant, createTestTenant } from '../support/factories';
import { useLocalApi } from '../support/local-api';
import { testS3 } from '../support/media';
import { newShoot } from '../support/shoot-uploads';

const api = useLocalApi();

// eslint-disable-next-line @typescript-eslint/no-require-imports -- piexifjs ships no types and no ES module
const piexif = require('piexifjs');

/** A small real JPEG carrying the given EXIF (0th IFD for make and model, Exif IFD for the rest). */
async function jpegWithExif(exif?: {
  make?: string;
  model?: string;
  taken?: string;
  subSeconds?: string;
  serial?: string;
}): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();
  if (!exif) return jpeg;
  const zeroth: Record<number, string> = {};
  const photo: Record<number, string> = {};
  if (exif.make) zeroth[piexif.ImageIFD.Make] = exif.make;
  if (exif.model) zeroth[piexif.ImageIFD.Model] = exif.model;
  if (exif.taken) photo[piexif.ExifIFD.DateTimeOriginal] = exif.taken;
  if (exif.subSeconds) photo[piexif.ExifIFD.SubSecTimeOriginal] = exif.subSeconds;
  if (exif.serial) photo[piexif.ExifIFD.BodySerialNumber] = exif.serial;
  const dumped = piexif.dump({ '0th': zeroth, Exif: photo });
  return Buffer.from(piexif.insert(dumped, jpeg.toString('binary')), 'binary');
}

function writeFile(root: string, path: string, bytes: Buffer | string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), bytes);
}

/**
 * Every request the command sends, by method and what it is: an API path (`POST /uploads`), or a
 * presigned S3 URL (`PUT part <key>`, `PUT <key>`). Nothing else carries credentials: the
 * command is given no AWS credentials, table or bucket.
 */
const calls: Array<{ call: string; key?: string }> = [];
const realFetch = globalThis.fetch;
beforeAll(() => {
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? 'GET';
    if (url.pathname.startsWith('/v1/')) {
      calls.push({
        call: `${method} ${url.pathname.replace(/^\/v1\/groupshoot\/[^/]+|^\/v1\/group-shoot\/checkin\/[^/]+/, '')}`,
      });
    } else {
      const key = decodeURIComponent(url.pathname).split('/').slice(2).join('/');
      calls.push({ call: `${method} ${url.searchParams.has('uploadId') ? 'part' : 'object'}`, key });
    }
    return realFetch(input, init);
  };
});
afterAll(() => {
  globalThis.fetch = realFetch;
});

/** The command as the studio runs it: the API's URL, its slug and its API key, and an otherwise empty environment. */
async function upload(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  calls.length = 0;
  const code = await runPhotos(
    ['upload', ...argv],
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    { env: {}, workingDirectory: tmpdir() },
  );
  return { code, out, err, json: () => JSON.parse(out.join('\n')) };
}

describe('npm run photos -- upload', () => {
  let studio: TestTenant;
  let other: TestTenant;
  let folder: string;
  const key = (path: string) => inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path });
  const head = (path: string) =>
    testS3.send(new HeadObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key(path) }));
  const connection = () => ['--base-url', api.url, '--tenant', studio.slug, '--api-key', studio.apiKey];
  const gallery = () => [...connection(), '--gallery', studio.token];
  const photos = [
    'big/large.jpg',
    'cam-a/IMG_0001.JPG',
    'cam-a/IMG_0002.jpg',
    'cam-b/a/b-c/deep.jpg',
    'cam-b/day 1/DSC 0001.jpeg',
  ];

  beforeAll(async () => {
    [studio, other] = await Promise.all([createTestTenant(), createTestTenant()]);
    folder = mkdtempSync(join(tmpdir(), 'photo-upload-'));
    writeFile(
      folder,
      'cam-a/IMG_0001.JPG',
      await jpegWithExif({
        make: 'Canon',
        model: 'EOS R5',
        taken: '2026:11:20 10:00:01',
        subSeconds: '12',
        serial: '0123',
      }),
    );
    writeFile(
      folder,
      'cam-a/IMG_0002.jpg',
      await jpegWithExif({ make: 'Nikon', model: 'Z 9', taken: '2026:11:20 10:00:02' }),
    );
    writeFile(folder, 'cam-b/day 1/DSC 0001.jpeg', await jpegWithExif());
    // A camera whose clock was never set writes zeros: no capture time.
    writeFile(folder, 'cam-b/a/b/c/deep.jpg', await jpegWithExif({ model: 'Phone', taken: '0000:00:00 00:00:00' }));
    // Above the 5 MiB part size: bytes after the end-of-image marker keep it a valid JPEG.
    writeFile(
      folder,
      'big/large.jpg',
      Buffer.concat([
        await jpegWithExif({ make: 'Sony', taken: '2026:11:20 11:00:00', subSeconds: '5' }),
        Buffer.alloc(6_000_000, 7),
      ]),
    );
    writeFile(folder, 'notes.txt', 'shot list');
    writeFile(folder, 'cam-a/._IMG_0001.JPG', 'macOS resource fork, not a JPEG');
    writeFile(folder, '.hidden/secret.jpg', await jpegWithExif());
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('uploads every JPEG to the inbox with capture time and camera from EXIF, large files in parts, and skips the rest', async () => {
    // Act
    const run = await upload(folder, ...gallery(), '--part-size', '5', '--parallel', '2', '--json');
    // Assess
    expect(run.code).toBe(0);
    const report = run.json();
    expect(report.uploaded.map((file: { inboxPath: string }) => file.inboxPath)).toEqual(photos);
    expect(report.skipped).toEqual([
      { relativePath: 'cam-a/._IMG_0001.JPG', reason: 'not_jpeg' },
      { relativePath: 'notes.txt', reason: 'not_jpeg' },
    ]);
    expect((await head('cam-a/IMG_0001.JPG')).Metadata).toEqual({
      'captured-at': '2026-11-20T10:00:01.120Z',
      camera: 'Canon EOS R5 #0123',
    });
    expect((await head('cam-a/IMG_0002.jpg')).Metadata).toEqual({
      'captured-at': '2026-11-20T10:00:02.000Z',
      camera: 'Nikon Z 9',
    });
    expect((await head('cam-b/day 1/DSC 0001.jpeg')).Metadata).toEqual({});
    expect((await head('cam-b/a/b-c/deep.jpg')).Metadata).toEqual({ camera: 'Phone' });
    const large = await head('big/large.jpg');
    expect(large).toEqual(expect.objectContaining({ ContentType: 'image/jpeg', ContentLength: expect.any(Number) }));
    expect(large.Metadata).toEqual({ 'captured-at': '2026-11-20T11:00:00.500Z', camera: 'Sony' });
    expect(large.ContentLength).toBeGreaterThan(6_000_000);
    // One listing, one request for the URLs, a PUT per small file, two parts for the large one, one completion.
    expect(calls.filter((call) => call.key === key('big/large.jpg')).map((call) => call.call)).toEqual([
      'PUT part',
      'PUT part',
    ]);
    expect(calls.filter((call) => call.key === key('cam-a/IMG_0001.JPG')).map((call) => call.call)).toEqual([
      'PUT object',
    ]);
    expect(calls.filter((call) => call.key === undefined).map((call) => call.call)).toEqual([
      'GET /uploads',
      'POST /uploads',
      'POST /uploads/complete',
    ]);
    expect(report.uploaded.find((file: { inboxPath: string }) => file.inboxPath === 'big/large.jpg').kind).toBe(
      'multipart',
    );
    // Without a terminal: a first line, then one line per file, no progress bar.
    expect(run.err).toHaveLength(1 + photos.length);
    expect(run.err[0]).toMatch(/^Uploading 5 file\(s\), 6\.\d MB$/);
  });

  it('uploads nothing on a second run', async () => {
    // Act
    const run = await upload(folder, ...gallery(), '--part-size', '5');
    // Assess
    expect(run.code).toBe(0);
    expect(run.out[0]).toBe('Uploaded 0 file(s), 0.0 MB; 5 already in the inbox');
    expect(run.out[1]).toMatch(
      /^Skipped 2 file\(s\): cam-a\/\._IMG_0001\.JPG \(not a JPEG\), notes\.txt \(not a JPEG\)$/,
    );
    expect(calls.map((call) => call.call)).toEqual(['GET /uploads']);
    expect(run.err).toEqual([]);
  });

  it('uploads again what is missing from the inbox or differs in size, given the connection in the environment', async () => {
    // Prepare
    await testS3.send(new DeleteObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key('cam-a/IMG_0002.jpg') }));
    appendFileSync(join(folder, 'cam-b/day 1/DSC 0001.jpeg'), Buffer.alloc(10));
    // Act
    const out: string[] = [];
    const env = { GROUPSHOOT_API_URL: api.url, GROUPSHOOT_TENANT: studio.slug, GROUPSHOOT_API_KEY: studio.apiKey };
    const code = await runPhotos(
      ['upload', folder, '--gallery', studio.token, '--json'],
      { out: (line) => out.push(line), err: () => {} },
      { env, workingDirectory: tmpdir() },
    );
    const run = { code, json: () => JSON.parse(out.join('\n')) };
    // Assess
    expect(run.code).toBe(0);
    expect(run.json().uploaded.map((file: { inboxPath: string }) => file.inboxPath)).toEqual([
      'cam-a/IMG_0002.jpg',
      'cam-b/day 1/DSC 0001.jpeg',
    ]);
    expect(run.json().unchanged).toHaveLength(3);
    const stored = await testS3.send(
      new GetObjectCommand({ Bucket: process.env.MEDIA_BUCKET, Key: key('cam-b/day 1/DSC 0001.jpeg') }),
    );
    expect((await stored.Body!.transformToByteArray()).subarray(-10)).toEqual(new Uint8Array(10));
  });

  it('lists what it would upload with --dry-run and sends nothing', async () => {
    // Prepare
    appendFileSync(join(folder, 'cam-a/IMG_0001.JPG'), Buffer.alloc(3));
    // Act
    const run = await upload(folder, ...gallery(), '--dry-run');
    // Assess
    expect(run.code).toBe(0);
    expect(run.out.slice(0, 2)).toEqual(['Would upload 1 file(s); 4 already in the inbox', '  cam-a/IMG_0001.JPG']);
    expect(calls.map((call) => call.call)).toEqual(['GET /uploads']);
  });

  it.each<[string, () => string[], number, RegExp]>([
    ['an unknown gallery', () => [folder, ...connection(), '--gallery', 'nosuchgallery'], 1, /gallery_not_found/],
    [
      'an unknown tenant',
      () => [
        folder,
        '--base-url',
        api.url,
        '--tenant',
        'no-such-studio',
        '--api-key',
        studio.apiKey,
        '--gallery',
        studio.token,
      ],
      1,
      /invalid_tenant/,
    ],
    [
      "another tenant's gallery",
      () => [
        folder,
        '--base-url',
        api.url,
        '--tenant',
        other.slug,
        '--api-key',
        other.apiKey,
        '--gallery',
        studio.token,
      ],
      1,
      /gallery_not_found/,
    ],
    ['a folder that does not exist', () => [join(folder, 'missing'), ...gallery()], 2, /is not a folder/],
    ['no folder', () => gallery(), 2, /needs exactly one folder/],
    [
      'a part size below 5 MiB',
      () => [folder, ...gallery(), '--part-size', '4'],
      2,
      /--part-size must be a whole number of at least 5/,
    ],
    [
      'a part size above 64 MiB',
      () => [folder, ...gallery(), '--part-size', '65'],
      2,
      /--part-size must be at most 64/,
    ],
  ])('refuses %s with one line', async (_case, argv, code, message) => {
    const run = await upload(...argv());
    expect({ code: run.code, err: run.err, out: run.out }).toEqual({
      code,
      err: [expect.stringMatching(message)],
      out: [],
    });
  });
});

describe('npm run photos -- upload: its connection', () => {
  let studio: TestTenant;
  let folder: string;
  let workingDirectory: string;
  /** The command with an environment of its own and the connection files of `workingDirectory`. */
  async function uploadIn(env: NodeJS.ProcessEnv, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPhotos(
      ['upload', folder, '--gallery', studio.token, ...argv],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { env, workingDirectory },
    );
    return { code, out, err };
  }
  /** The connection file of a server that runs (this test process) and serves this test's API. */
  const writeServer = (info: { pid: number; port: number }) =>
    writeServerFile(workingDirectory, { ...info, baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });

  beforeAll(async () => {
    studio = await createTestTenant();
    folder = mkdtempSync(join(tmpdir(), 'photo-upload-environment-'));
    writeFile(folder, 'IMG_0001.jpg', await jpegWithExif());
  });

  beforeEach(() => {
    workingDirectory = mkdtempSync(join(tmpdir(), 'photo-upload-servers-'));
  });

  afterEach(() => {
    rmSync(workingDirectory, { recursive: true, force: true });
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('needs the API URL, tenant and key, and no table, bucket or AWS credentials', async () => {
    // Act: nothing given and no server running
    const run = await uploadIn({});
    // Assess
    expect(run).toEqual({
      code: 2,
      out: [],
      err: ['The API URL, tenant and API key are needed (options, environment, or a running npm start)'],
    });
  });

  it('uses the API of the one server running from its folder, and says so', async () => {
    // Prepare
    const file = writeServer({ pid: LIVE_PROCESS_IDS[0], port: 3000 });
    // Act
    const run = await uploadIn({}, '--dry-run');
    // Assess
    expect(run.code).toBe(0);
    expect(run.err[0]).toBe(`Using the local API at ${api.url} (from ${file})`);
    expect(run.out[0]).toBe('Would upload 1 file(s); 0 already in the inbox');
  });

  it('refuses to choose between two running servers, naming both ports', async () => {
    writeServer({ pid: LIVE_PROCESS_IDS[0], port: 3000 });
    writeServer({ pid: LIVE_PROCESS_IDS[1], port: 3001 });
    const run = await uploadIn({}, '--dry-run');
    expect(run).toEqual({
      code: 2,
      out: [],
      err: [
        expect.stringMatching(/^2 local servers run from .*: port 3000 .*, port 3001 .*; name one with --data DIR/),
      ],
    });
  });
});

describe('npm run photos -- iam-policy', () => {
  let studio: TestTenant;
  async function policy(env: NodeJS.ProcessEnv, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runPhotos(
      ['iam-policy', ...argv],
      { out: (line) => out.push(line), err: (line) => err.push(line) },
      { env, workingDirectory: tmpdir() },
    );
    return { code, out, err };
  }

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it("prints the policy of the tenant's own photos folder, given the tenant by ID, without reading the table", async () => {
    // Act
    const run = await policy({}, '--tenant', studio.tenant.tenantId, '--bucket', 'studio-media');
    // Assess
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.join('\n'))).toEqual(uploadPolicy(studio.tenant.tenantId, 'studio-media'));
  });

  it('looks a slug up in the table and takes the bucket from MEDIA_BUCKET', async () => {
    // Act
    const { TABLE_NAME, DYNAMODB_ENDPOINT } = process.env;
    const run = await policy({ TABLE_NAME, DYNAMODB_ENDPOINT, MEDIA_BUCKET: 'the-bucket' }, '--tenant', studio.slug);
    // Assess
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.join('\n'))).toEqual(uploadPolicy(studio.tenant.tenantId, 'the-bucket'));
  });

  it("prints one gallery's inbox policy, the gallery checked to be the slug's", async () => {
    // Prepare
    const gallery = (await newShoot(studio, 1)).scope;
    const { TABLE_NAME, DYNAMODB_ENDPOINT } = process.env;
    // Act
    const run = await policy(
      { TABLE_NAME, DYNAMODB_ENDPOINT },
      ...['--tenant', studio.slug, '--gallery', gallery.token, '--bucket', 'b'],
    );
    const unknown = await policy(
      { TABLE_NAME, DYNAMODB_ENDPOINT },
      ...['--tenant', studio.slug, '--gallery', 'nosuchgallery1', '--bucket', 'b'],
    );
    // Assess
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out.join('\n'))).toEqual(uploadPolicy(studio.tenant.tenantId, 'b', gallery.token));
    expect(run.out.join('\n')).toContain(`photos/${studio.tenant.tenantId}/${gallery.token}/inbox/*`);
    expect(unknown).toEqual({
      code: 1,
      out: [],
      err: [expect.stringMatching(/has no gallery with token "nosuchgallery1"/)],
    });
  });

  it.each<[string, string[], number, RegExp]>([
    ['an unknown slug', ['--tenant', 'no-such-studio', '--bucket', 'b'], 1, /No tenant with slug "no-such-studio"/],
    ['no bucket', ['--tenant', 'ten_00000000000000000000000000'], 2, /--bucket NAME/],
  ])('refuses %s with one line', async (_case, argv, code, message) => {
    const { TABLE_NAME, DYNAMODB_ENDPOINT } = process.env;
    const run = await policy({ TABLE_NAME, DYNAMODB_ENDPOINT }, ...argv);
    expect({ code: run.code, err: run.err, out: run.out }).toEqual({
      code,
      err: [expect.stringMatching(message)],
      out: [],
    });
  });
});
