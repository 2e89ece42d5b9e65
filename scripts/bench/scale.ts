import { generateKeyPairSync } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { ingestPhotoObject } from '#lib/photos/sorting/ingest-photo';
import { photoLinkOf } from '#lib/photos/links/photo-links';
import { putMediaObject } from '#lib/platform/media-bucket';
import { inboxObjectKey, photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { createHrExport } from '#lib/hr-exports/create-hr-export';
import { buildHrExport } from '#lib/hr-exports/build-hr-export';
import { useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { erasePersons, eraseGallery } from '#lib/privacy/erasure';
import { describeReferenceFace } from '#lib/faces/reference-faces';
import { eventKeysAbout } from '#lib/events/store/outbox';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { db, tableName } from '#lib/platform/table/client';
import { personKeys } from '#lib/persons/store/keys';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { useEmailSender } from '#lib/photos/notices/adapters/email-sender';
import { startSesLocal } from '../local/ses-local';
import { packagedFaces } from '../faces/packaged-faces';
import { portraitJpeg } from '../samples/synthetic-shoot';
import {
  callApi,
  checkinBody,
  createBenchGallery,
  createBenchStudio,
  consentingPortrait,
  importInto,
  importRowsFor,
  postGroupShootInProcess,
  shootPhotoFacts,
} from './bench-api';
import type { RoundTripCounter } from './round-trip-counter';
import * as floors from './round-trip-floors';
import { cpuMillisecondsSince, median, rounded, timed } from './statistics';

export type ScaleResult = Awaited<ReturnType<typeof measureScale>>;
export interface ScaleOptions {
  /** Persons per gallery, smallest first. */
  sizes: number[];
  /** Measured requests per path and size, after one unmeasured. */
  iterations: number;
  largeImportRows: number;
  /** The `limit`s GET persons is measured with (undefined: its default); a gallery smaller than a page reads less only for that. */
  personsPages: (number | undefined)[];
  /** Whether to measure the background work too (the test suite's run measures the request paths only). */
  background: boolean;
  /** Real ingests and sortings per size (the rest of the photos are seeded through the photos store). */
  ingestSamples: number;
}

/** Paths whose reads grow with the gallery by nature, named with their reason (docs/benchmarks/scale.md). None. */
export const PER_SIZE_PATHS: Record<string, string> = {};
/** The largest gallery's items, read units and bytes read per request may be at most this times the smallest's. */
export const ITEMS_READ_RATIO_LIMIT = 1.05;

const SEED_CONCURRENCY = 8;
const HIGH_LIMIT = { limit: 100_000, windowMs: 60_000 };

/** When the shoot took person `index`'s card (second 0) and photo (second 1), in camera `cam-<index mod SEED_CONCURRENCY>`. */
const shotAt = (index: number, second: number) => new Date(Date.UTC(2030, 0, 15, 9) + index * 10_000 + second * 1000);

type ScaleGallery = Awaited<ReturnType<typeof seedScaleGallery>>;
type Sample = Record<(typeof SAMPLE_FIGURES)[number], number>;

/**
 * The scale bench (issue 42, docs/benchmarks/scale.md): galleries of `sizes` persons, each with
 * two photos and a card and a shoot photo per person; every request path's DynamoDB calls, items
 * and bytes read and latency at each size, path by path over the sizes; then the background
 * work's time per item and peak heap at each size.
 */
export async function measureScale(baseUrl: string, counter: RoundTripCounter, options: ScaleOptions) {
  // sendPhotoLink and the photo-ready emails send to a local SES of this run.
  const ses = await startSesLocal();
  const sesEndpoint = process.env.SES_ENDPOINT;
  process.env.SES_ENDPOINT = ses.endpoint;
  useEmailSender(undefined);
  try {
    return await measureAtSizes(baseUrl, counter, options);
  } finally {
    if (sesEndpoint === undefined) delete process.env.SES_ENDPOINT;
    else process.env.SES_ENDPOINT = sesEndpoint;
    useEmailSender(undefined);
    await ses.stop();
  }
}

async function measureAtSizes(baseUrl: string, counter: RoundTripCounter, options: ScaleOptions) {
  // Photo URLs are signed (nobody fetches them here): a key of this run where none is configured.
  if (!process.env.CLOUDFRONT_PRIVATE_KEY && !process.env.CLOUDFRONT_PRIVATE_KEY_ARN) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    process.env.CLOUDFRONT_PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    process.env.CLOUDFRONT_KEY_PAIR_ID ??= 'KSCALEBENCH';
  }
  process.env.PHOTO_CDN_URL ??= 'https://photos.example.com';
  process.env.CHECKIN_PAGE_URL ??= 'https://checkin.example.com/';
  // Exports are built here by the build itself: none is queued.
  useHrExportQueue({ send: async () => undefined });
  const galleries: ScaleGallery[] = [];
  for (const persons of options.sizes) {
    galleries.push(await seedScaleGallery(persons, options.ingestSamples));
    progress(`${persons} persons seeded in ${galleries.at(-1)!.seeding.seconds} s`);
  }
  const requests: RequestRow[] = [];
  for (const path of requestCases(baseUrl, options)) {
    const bySize: Sample[] = [];
    progress(path.name);
    for (const gallery of galleries) bySize.push(await measureRequest(path, gallery, counter, options.iterations));
    const ratio = (name: keyof Sample) => ratioOf(bySize.at(-1)![name], bySize[0]![name]);
    const sizes = galleries.map((gallery, index) => [`at${gallery.persons}`, shown(bySize[index]!)] as const);
    const { floor } = path;
    requests.push({
      path: path.name,
      ...Object.fromEntries(sizes),
      // A failed call sent again is a retry (an access-code collision) of a round trip the floor counts already.
      ...(floor && {
        floor: { calls: floor.calls, depth: floor.depth },
        atFloor: bySize.every((size) => size.calls - size.failedCalls <= floor.calls && size.depth <= floor.depth),
      }),
      ratio: {
        items: ratio('itemsRead'),
        units: ratio('unitsRead'),
        bytes: ratio('bytesRead'),
        ms: ratio('ms'),
        cpuMs: ratio('cpuMs'),
      },
    });
  }
  const background: JobFigures[] = [];
  if (options.background)
    for (const gallery of galleries) background.push(...(await backgroundWork(gallery, options.ingestSamples)));
  return {
    galleries: galleries.map(({ persons, seeding }) => ({ persons, ...seeding })),
    requests,
    background: background.map((job) => ({ ...job, ratio: jobRatio(background, job) })),
  };
}

/**
 * Medians of `iterations` requests of `path` in `gallery`, after one unmeasured; a cold path's
 * each in a studio of its own, which this process has never read. The CPU is this process's,
 * where the local API runs.
 */
async function measureRequest(path: RequestCase, gallery: ScaleGallery, counter: RoundTripCounter, iterations: number) {
  const apiKey = (await createApiKey(gallery.tenantId, `Scale ${path.name}`)).secret;
  if (!path.cold) await path.send(gallery, apiKey, 0);
  const samples: Sample[] = [];
  for (let iteration = 1; iteration <= iterations; iteration += 1) {
    const unread = path.cold ? { ...gallery, ...(await createBenchStudio('cold')) } : { ...gallery, apiKey };
    const cpuBefore = process.cpuUsage();
    const send = () => counter.measure(() => path.send(unread, unread.apiKey, iteration), { capacity: true });
    const { result, milliseconds } = await timed(send);
    samples.push({ ...result.count, ms: milliseconds, cpuMs: cpuMillisecondsSince(cpuBefore) });
  }
  const figure = (name: keyof Sample) => median(samples.map((sample) => sample[name]));
  return Object.fromEntries(SAMPLE_FIGURES.map((name) => [name, figure(name)])) as Sample;
}

const SAMPLE_FIGURES = ['calls', 'failedCalls', 'depth', 'itemsRead', 'unitsRead', 'bytesRead', 'ms', 'cpuMs'] as const;

/** A size's figures as the table shows them. */
const shown = ({ calls, depth, itemsRead, unitsRead, bytesRead, ms, cpuMs }: Sample) => ({
  calls,
  depth,
  items: itemsRead,
  units: rounded(unitsRead, 1),
  kb: rounded(bytesRead / 1024, 1),
  ms: rounded(ms, 1),
  cpuMs: rounded(cpuMs, 1),
});

export interface RequestRow {
  path: string;
  ratio: { items: number; units: number; bytes: number; ms: number; cpuMs: number };
  floor?: { calls: number; depth: number };
  atFloor?: boolean;
  [size: `at${number}`]: ReturnType<typeof shown>;
}

/** largest / smallest, 1 where both are 0. */
const ratioOf = (largest: number, smallest: number) =>
  smallest === 0 ? (largest === 0 ? 1 : Infinity) : rounded(largest / smallest);

/** A job's time per item against the same job in the smallest gallery. */
function jobRatio(jobs: JobFigures[], job: JobFigures) {
  const smallest = jobs.find((other) => other.job === job.job)!;
  if (!('msPerItem' in job) || !('msPerItem' in smallest)) return 'failed';
  return ratioOf(job.msPerItem, smallest.msPerItem);
}

/**
 * A gallery of `persons` imported persons (through the import use case, 500 at a time), each
 * consenting to the HR export, with two photos (objects, and records through the photos store),
 * a card and a shoot photo after it; then an HR export built of every person (timed: a
 * background job) that GET hr-exports reads.
 */
async function seedScaleGallery(persons: number, ingestSamples: number) {
  const started = performance.now();
  const studio = await createBenchStudio(`scale-${persons}`, {
    consentRequired: true,
    granularConsents: { face: true, notification: false, hrExport: true },
  });
  const scope = { tenantId: studio.tenantId, token: studio.token };
  const publicLimits = Object.fromEntries(
    ['reads', 'checkins', 'photoLookups', 'photoLookupFailures', 'photoLookupFailuresPerSite'].map((name) => [
      name,
      HIGH_LIMIT,
    ]),
  );
  await updateGallerySettings(scope.tenantId, scope.token, {
    photoAccess: { codeAndEmail: true, codeAndEmployeeId: true },
    publicLimits,
  });
  const imported = await importInto(studio.tenant, studio, persons);
  // The imports' own gallery of as many persons: what they add stays out of the background work's.
  const importGallery = await createBenchGallery(studio.tenantId, `Scale ${persons}: imports`);
  await importInto(studio.tenant, importGallery, persons);
  const jpegs = await Promise.all([1, 2].map((seed) => portraitJpeg({ width: 320, height: 240, seed })));
  // A camera per worker, each placing its persons' cards and photos in the order they were taken.
  const cameras = [...Array(SEED_CONCURRENCY).keys()];
  await mapWithConcurrency(cameras, SEED_CONCURRENCY, async (camera) => {
    for (let index = camera; index < imported.length; index += SEED_CONCURRENCY) {
      const { personId, code } = imported[index]!;
      await consentingPortrait(scope, personId, jpegs[0]!, ['hrExportConsent', 'faceConsent']);
      // The shoot: the person's card, then a photo it governs.
      const card = shootPhotoFacts(scope, `cam-${camera}/card-${index}.jpg`, shotAt(index, 0).toISOString());
      await placeShootPhoto(scope, card, { kind: 'card', code });
      const shot = shootPhotoFacts(scope, `cam-${camera}/shot-${index}.jpg`, shotAt(index, 1).toISOString());
      await putMediaObject(shot.objectKey, jpegs[1]!, 'image/jpeg');
      await placeShootPhoto(scope, { ...shot, width: 320, height: 240 }, { kind: 'photo' });
    }
  });
  const seconds = rounded((performance.now() - started) / 1000, 1);
  const hrBuild = await backgroundJob('HR export build (per exported person)', persons, persons, async () => {
    const created = await createHrExport(studio.tenant, scope.token, { size: 64 });
    const outcome = await buildHrExport({ ...scope, exportId: created.exportId }, { isLast: true });
    if (outcome !== 'ready') throw new Error(`The scale gallery's HR export was not built: ${outcome}`);
    return created.exportId;
  });
  const subject = imported[0]!;
  // The link the photo-ready email carries, from the view's address it opens.
  const linkOf = async (personId: string) =>
    (await photoLinkOf(studio.slug, scope, personId)).url.split('#my-photos/link/')[1]!;
  return {
    persons,
    seeding: { seconds, photos: persons * 2, shootItems: persons * 2, ingestSamples },
    ...studio,
    scope,
    subject,
    subjectLink: await linkOf(subject.personId),
    imported,
    importGallery,
    exportId: hrBuild.result,
    hrBuild: hrBuild.figures,
    jpegs,
  };
}

interface RequestCase {
  name: string;
  /** The fewest round trips it can make (round-trip-floors.ts), at every size. */
  floor?: floors.RoundTripFloor;
  /** Sent on a tenant this process has never read: a cold instance. */
  cold?: boolean;
  send(gallery: ScaleGallery, apiKey: string, iteration: number): Promise<unknown>;
}

let addresses = 0;

/**
 * Every request path, with each documented filter, and floors where round-trip-floors.ts sets
 * one; POST /group-shoot in process, from a client address of its own each.
 */
function requestCases(baseUrl: string, { largeImportRows, personsPages }: ScaleOptions): RequestCase[] {
  const call = (gallery: ScaleGallery, path: string, options: { apiKey?: string; body?: unknown } = {}) =>
    callApi(baseUrl, gallery.slug, path, options);
  const server = (path: (gallery: ScaleGallery) => string) => (gallery: ScaleGallery, apiKey: string) =>
    call(gallery, `/groupshoot/${gallery.token}${path(gallery)}`, { apiKey });
  /** POST /group-shoot `action` with `body`; an answer with the status `expected` allows, else throws. */
  const post = async (
    gallery: ScaleGallery,
    body: Record<string, unknown>,
    expected = (status: number): boolean => status === 200,
  ) => {
    addresses += 1;
    const address = `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
    const answer = await postGroupShootInProcess(gallery.slug, address, body);
    if (!expected(answer.status) || (answer.status === 200 && answer.body.error))
      throw new Error(`${String(body.action)} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
    return answer;
  };
  const action = (name: string, body: (gallery: ScaleGallery, iteration: number) => Record<string, unknown>) => ({
    name: `POST /group-shoot ${name}`,
    send: (gallery: ScaleGallery, _apiKey: string, iteration: number) =>
      post(gallery, { action: name, token: gallery.token, ...body(gallery, iteration) }),
  });
  /** A checkout action given a token of the right form that names nothing: answered 404 or 410, not measured for its answer. */
  const unknownToken = (name: string, member: string) => ({
    name: `POST /group-shoot ${name} (unknown token)`,
    send: (gallery: ScaleGallery) =>
      post(gallery, { action: name, [member]: 'c'.repeat(43) }, (status) => status >= 400 && status < 500),
  });
  const byLink = (gallery: ScaleGallery) => ({ photoLink: gallery.subjectLink });
  const cursors = new Map<string, string>();
  const importOf = (rows: number) => (gallery: ScaleGallery, apiKey: string, iteration: number) =>
    call(gallery, `/groupshoot/${gallery.importGallery.token}/persons`, {
      apiKey,
      body: { persons: importRowsFor(rows, gallery.importGallery.dayId, `import-${rows}-${iteration}`) },
    });
  const checkinInfo = (gallery: ScaleGallery) => call(gallery, `/group-shoot/checkin/${gallery.token}`);
  const coldFloor = (warm: floors.RoundTripFloor) => ({
    calls: warm.calls + floors.COLD_INSTANCE_EXTRA.calls,
    depth: warm.depth + floors.COLD_INSTANCE_EXTRA.depth,
    reason: `${floors.COLD_INSTANCE_EXTRA.reason}, then ${warm.reason}`,
  });
  return [
    { name: 'GET check-in info (public)', floor: floors.PUBLIC_CHECKIN_INFO_FLOOR, send: checkinInfo },
    {
      name: 'GET check-in info (public), cold instance',
      floor: floors.PUBLIC_CHECKIN_INFO_COLD_FLOOR,
      cold: true,
      send: checkinInfo,
    },
    {
      ...action('submitCheckin', (gallery, iteration) => ({
        ...checkinBody(gallery.token, gallery.dayId, `scale-${gallery.persons}-${iteration}-${Date.now()}`),
        consentGiven: true,
      })),
      floor: floors.SUBMIT_CHECKIN_FLOOR,
    },
    // A paid check-in needs Stripe: these read the token they are given (not found, answered as such).
    unknownToken('checkinStatus', 'statusToken'),
    unknownToken('retryCheckout', 'retryToken'),
    action('myPhotos', ({ subject }) => ({ code: subject.code, email: subject.email })),
    action('sendPhotoLink', ({ subject }) => ({ email: subject.email })),
    action('photosByLink', byLink),
    action('pickPhoto', (gallery) => ({
      ...byLink(gallery),
      photoId: photoIdOf(
        photoObjectKey({ ...gallery.scope, personId: gallery.subject.personId, fileName: 'portrait.jpg' }),
      ),
    })),
    action('withdrawFaceConsent', byLink),
    ...personsPages.map((limit) => ({
      name: limit === undefined ? 'GET persons' : `GET persons?limit=${limit}`,
      floor: floors.LIST_PERSONS_FLOOR,
      send: server(() => (limit === undefined ? '/persons' : `/persons?limit=${limit}`)),
    })),
    {
      name: 'GET persons?cursor= (second page)',
      async send(gallery, apiKey) {
        let cursor = cursors.get(gallery.token);
        if (!cursor) {
          const first = await call(gallery, `/groupshoot/${gallery.token}/persons?limit=10`, { apiKey });
          cursors.set(gallery.token, (cursor = String(first.nextCursor)));
        }
        return call(gallery, `/groupshoot/${gallery.token}/persons?limit=10&cursor=${cursor}`, { apiKey });
      },
    },
    { name: 'GET persons?employeeId=', send: server(({ subject }) => `/persons?employeeId=${subject.employeeId}`) },
    {
      name: 'GET person photos',
      floor: floors.PERSON_PHOTOS_FLOOR,
      send: server(({ subject }) => `/persons/${subject.personId}/photos`),
    },
    { name: 'GET days', floor: floors.SERVER_SIDE_READ_FLOOR, send: server(() => '/days') },
    {
      name: 'GET days, cold instance',
      floor: coldFloor(floors.SERVER_SIDE_READ_FLOOR),
      cold: true,
      send: server(() => '/days'),
    },
    { name: 'GET stats', floor: floors.SERVER_SIDE_READ_FLOOR, send: server(() => '/stats') },
    { name: 'GET form-fields', floor: floors.SERVER_SIDE_READ_FLOOR, send: server(() => '/form-fields') },
    { name: 'GET uploads', send: server(() => '/uploads') },
    { name: 'GET uploads?limit=10', send: server(() => '/uploads?limit=10') },
    { name: 'GET hr-exports/{id} (ready)', send: server(({ exportId }) => `/hr-exports/${exportId}`) },
    {
      name: 'POST hr-exports (create)',
      send: (gallery, apiKey) =>
        call(gallery, `/groupshoot/${gallery.token}/hr-exports`, { apiKey, body: { size: 64 } }),
    },
    // In a gallery of their own of as many persons, which they grow.
    { name: 'POST persons (1 row)', floor: floors.importFloor(1), send: importOf(1) },
    {
      name: `POST persons (${largeImportRows} rows)`,
      floor: floors.importFloor(largeImportRows),
      send: importOf(largeImportRows),
    },
  ];
}

/**
 * The background work at one size, each job alone: time per item and the heap's peak above its
 * start (after a forced collection), sampled every 5 ms. Gallery erasure last: it takes the rest.
 */
async function backgroundWork(gallery: ScaleGallery, samples: number) {
  const { scope, persons, imported } = gallery;
  const jobs: JobFigures[] = [gallery.hrBuild];
  const ingest = async (objectKey: string, bytes: Buffer, metadata?: Record<string, string>) => {
    await putMediaObject(objectKey, bytes, 'image/jpeg', metadata);
    return ingestPhotoObject({ objectKey, uploadedAt: new Date().toISOString() });
  };
  const sample = [...Array(samples).keys()];
  jobs.push(
    await backgroundFigures('Ingest of a person photo', persons, samples, async () => {
      for (const index of sample) {
        const { personId } = imported[(index * 7919) % imported.length]!;
        await ingest(photoObjectKey({ ...scope, personId, fileName: `ingested-${index}.jpg` }), gallery.jpegs[0]!);
      }
    }),
    await backgroundFigures('Sorting of a shoot photo (ingest of an inbox photo)', persons, samples, async () => {
      // After the middle person's photo, in the same camera: their card governs it.
      const middle = Math.floor(persons / 2);
      const camera = `cam-${middle % SEED_CONCURRENCY}`;
      for (const index of sample) {
        const metadata = { 'captured-at': shotAt(middle, 2 + index / 100).toISOString(), camera };
        await ingest(inboxObjectKey({ ...scope, path: `${camera}/IMG_${index}.jpg` }), gallery.jpegs[1]!, metadata);
      }
    }),
    await backgroundFigures('Erasure of one person', persons, 1, () =>
      erasePersons(scope, { personId: imported[1]!.personId }),
    ),
    await backgroundFigures('Retention of the gallery, nothing due (per person)', persons, persons, () =>
      retainGallery(scope),
    ),
  );
  const emailed = await photoReadyRecords(gallery, samplePersons(imported, samples, 3));
  jobs.push(
    await backgroundFigures('Photo-ready email (per photos.assigned event)', persons, emailed.length, async () => {
      for (const record of emailed) await sendPhotoNotices(record);
    }),
  );
  const described = await selfiesTaken(gallery, samplePersons(imported, Math.min(FACE_SAMPLES, samples) + 1, 5));
  // The model's load is the function's cold start, not a person's description.
  await describeReferenceFace(scope, described.shift()!);
  jobs.push(
    await backgroundFigures('Reference face (per person with a selfie)', persons, described.length, async () => {
      for (const personId of described) {
        const outcome = await describeReferenceFace(scope, personId);
        if (outcome !== 'stored') throw new Error(`A reference face was not described: ${outcome}`);
      }
    }),
    await backgroundFigures('Erasure of the gallery (per person)', persons, persons, () => eraseGallery(scope)),
  );
  return jobs;
}

/** Reference faces described per size at most (each takes the face model about half a second). */
const FACE_SAMPLES = 5;

/**
 * `count` persons spread over the gallery, leaving out the request paths' subject (`imported[0]`:
 * withdrawFaceConsent withdrew their consent) and the person erased alone (`imported[1]`).
 */
const samplePersons = (imported: { personId: string }[], count: number, offset: number) =>
  Array.from({ length: count }, (_, index) => imported[(offset + index * 7919) % imported.length]!.personId).filter(
    (personId) => personId !== imported[0]!.personId && personId !== imported[1]!.personId,
  );

/**
 * The photos.assigned events of `personIds` (their shoot photos' assignments), as the table's
 * stream hands them to the photo-ready notice function, once the gallery asks for
 * notifications and they consented.
 */
async function photoReadyRecords(gallery: ScaleGallery, personIds: string[]) {
  const { scope } = gallery;
  await updateGallerySettings(scope.tenantId, scope.token, {
    granularConsents: { face: true, notification: true, hrExport: true },
  });
  const records: DynamoDBStreamEvent[] = [];
  for (const personId of personIds) {
    await setOnPerson(scope, personId, 'consents.notificationConsent = :true');
    for (const key of await eventKeysAbout(scope, [personId])) {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key }));
      if (Item?.type !== 'photos.assigned') continue;
      const NewImage = marshall(Item, { removeUndefinedValues: true }) as never;
      records.push({ Records: [{ eventName: 'INSERT', dynamodb: { NewImage, SequenceNumber: key.sk } }] });
    }
  }
  if (records.length === 0) throw new Error('The scale gallery holds no photos.assigned event');
  return records;
}

/** The photo-ready notice function given one stream batch, as Lambda gives it. */
async function sendPhotoNotices(streamEvent: DynamoDBStreamEvent) {
  const { handler } = await import('../../functions/photos/notices/send-photo-notices');
  const { lambdaContext } = await import('../local/api-gateway-event');
  const answer = (await handler(streamEvent, lambdaContext('scale'))) as { batchItemFailures?: unknown[] } | undefined;
  if (answer?.batchItemFailures?.length) throw new Error('A photo-ready email was not sent');
}

/** A selfie of a packaged face for each of `personIds`, stored as a check-in with a selfie stores it. */
async function selfiesTaken(gallery: ScaleGallery, personIds: string[]) {
  const faces = await packagedFaces();
  for (const [index, personId] of personIds.entries()) {
    const selfie = selfieObjectKey(gallery.scope.tenantId, gallery.scope.token, personId);
    await putMediaObject(selfie, faces[index % faces.length]!.image, 'image/jpeg');
    await setOnPerson(gallery.scope, personId, 'hasSelfie = :true');
  }
  return personIds;
}

async function setOnPerson(scope: { tenantId: string; token: string }, personId: string, assignment: string) {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: `SET ${assignment}`,
      ExpressionAttributeValues: { ':true': true },
    }),
  );
}

/** The retention worker's handler given the gallery's queued message, as the retention queue gives it. */
async function retainGallery({ tenantId, token }: { tenantId: string; token: string }) {
  const { handler } = await import('../../functions/privacy/apply-gallery-retention');
  const { lambdaContext } = await import('../local/api-gateway-event');
  const body = JSON.stringify({ kind: 'gallery', tenantId, token });
  const event = { Records: [{ messageId: 'scale', body }] } as unknown as Parameters<typeof handler>[0];
  const answer = (await handler(event, lambdaContext('scale'))) as { batchItemFailures?: unknown[] } | undefined;
  if (answer?.batchItemFailures?.length) throw new Error('The gallery retention failed');
}

type JobFigures = Awaited<ReturnType<typeof backgroundFigures>>;

/** The job's figures, or the error that stopped it (the local S3 refuses a flood of requests: itself a finding). */
async function backgroundFigures(job: string, persons: number, items: number, work: () => Promise<unknown>) {
  progress(`${job}, ${persons} persons`);
  try {
    return (await backgroundJob(job, persons, items, work)).figures;
  } catch (error) {
    return { job, persons, items, failed: String((error as Error).message).slice(0, 120) };
  }
}

/** Progress on stderr, as the bench's. */
const progress = (text: string) => process.stderr.write(`  scale: ${text}\n`);

const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/**
 * `work` timed, with the heap's peak above its start, sampled every 5 ms, and what it holds: the
 * heap right after a forced collection, once a second and at its end (the peak alone grows with
 * a job's length, as V8 collects the old generation less often the longer a job allocates);
 * `items`: what its time is divided by.
 */
async function backgroundJob<T>(job: string, persons: number, items: number, work: () => Promise<T>) {
  collectGarbage();
  const startHeap = process.memoryUsage().heapUsed;
  let peakHeap = startHeap;
  let peakHeld = startHeap;
  const held = () => {
    collectGarbage();
    peakHeld = Math.max(peakHeld, process.memoryUsage().heapUsed);
  };
  const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 5);
  const collector = setInterval(held, 1000);
  try {
    const { result, milliseconds } = await timed(work);
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    held();
    const figures = {
      job,
      persons,
      items,
      msPerItem: rounded(milliseconds / items, 2),
      seconds: rounded(milliseconds / 1000, 2),
      peakHeapMb: rounded((peakHeap - startHeap) / 1024 / 1024, 1),
      heldHeapMb: rounded((peakHeld - startHeap) / 1024 / 1024, 1),
    };
    return { result, figures };
  } finally {
    clearInterval(sampler);
    clearInterval(collector);
  }
}
