import type { S3Event } from 'aws-lambda';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import sharp from 'sharp';
import { inboxObjectKey, thumbnailKey } from '#lib/platform/media-keys';
import { findMediaObject } from '#lib/platform/media-bucket';
import { THUMBNAIL_SIZE } from '#lib/photos/sorting/adapters/shoot-thumbnails';
import { assignSequence, readCard, sequencePosition } from '#lib/photos/sorting/rules/shoot-sequence';
import { photoIdOf } from '#lib/platform/media-keys';
import { admin } from '../../support/admin';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { useLocalApi } from '../../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { cardJpeg, makeShoot, portraitJpeg } from '../../../scripts/samples/synthetic-shoot';

const api = useLocalApi();

/** One file of the shoot as uploaded, with what the test knows it shows. */
interface ShootFile {
  path: string;
  bytes: Buffer;
  camera: string | null;
  capturedAt: string | null;
  /** The text of its camera card; undefined for a portrait. */
  cardText?: string;
}

const PERSONS = 10;

/**
 * The acceptance shoot of issue 17: ten persons, two cameras, cards at several sizes, angles
 * and blur levels between portraits (the generator's variants), portraits before the first
 * cards, a card with a code nobody has followed by two portraits, a photo without EXIF and a
 * file that is no image.
 */
async function shootFiles(codes: string[]): Promise<ShootFile[]> {
  const shoot = await makeShoot({ codes, cameras: 2, photosPerPerson: 3, unknownCode: null });
  const files: ShootFile[] = shoot.map((photo) => ({
    path: photo.path,
    bytes: photo.bytes,
    camera: photo.camera,
    capturedAt: photo.capturedAt,
    cardText: photo.code,
  }));
  const camera = { make: 'Canon', model: 'EOS R6', serial: '031001' };
  const late = (second: number) => `2026-11-20T11:00:0${second}.000Z`;
  files.push(
    {
      path: 'camera-1/IMG_9001.JPG',
      bytes: await cardJpeg({
        width: 1600,
        height: 1067,
        text: 'ZZZZ',
        size: 0.15,
        angle: 10,
        capturedAt: late(1),
        camera,
      }),
      camera: 'Canon EOS R6 #031001',
      capturedAt: late(1),
      cardText: 'ZZZZ',
    },
    {
      path: 'camera-1/IMG_9002.JPG',
      bytes: await portraitJpeg({ width: 1600, height: 1067, seed: 9002, capturedAt: late(2), camera }),
      camera: 'Canon EOS R6 #031001',
      capturedAt: late(2),
    },
    {
      path: 'camera-1/IMG_9003.JPG',
      bytes: await portraitJpeg({ width: 1600, height: 1067, seed: 9003, capturedAt: late(3), camera }),
      camera: 'Canon EOS R6 #031001',
      capturedAt: late(3),
    },
    { path: 'phone/no-exif.jpg', bytes: makeJpeg(64, 48), camera: null, capturedAt: null },
    { path: 'phone/notes.jpg', bytes: Buffer.from('not a photo at all'), camera: null, capturedAt: null },
  );
  return files;
}

/** Whose each portrait must be (a person ID, or null), by the keyframe rule over the files as the test made them. */
function expectedOwners(
  files: ShootFile[],
  personOfCode: Map<string, string>,
  keyOf: (path: string) => string,
): Map<string, string | null> {
  const owners = new Map<string, string | null>();
  for (const camera of new Set(files.map((file) => file.camera))) {
    const sequence = files.filter((file) => file.camera === camera && file.capturedAt !== null);
    const rule = assignSequence(
      sequence.map((file) => {
        const card = file.cardText === undefined ? undefined : readCard([file.cardText]);
        const position = sequencePosition(file.capturedAt!, file.path.split('/').at(-1)!, photoIdOf(keyOf(file.path)));
        return {
          position,
          card: card && card.kind === 'card' ? { personId: personOfCode.get(card.code) ?? null } : undefined,
        };
      }),
    );
    for (const file of sequence) {
      const owner = rule.get(
        sequencePosition(file.capturedAt!, file.path.split('/').at(-1)!, photoIdOf(keyOf(file.path))),
      );
      if (owner) owners.set(file.path, owner.personId);
    }
  }
  for (const file of files) if (file.capturedAt === null) owners.set(file.path, null);
  return owners;
}

/** Deterministic shuffle (a seeded LCG), so a failure can be replayed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let index = result.length - 1; index > 0; index -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const other = state % (index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

describe('a shoot uploaded to the inbox, sorted by the S3 ingest function', () => {
  let studio: TestTenant;
  let files: ShootFile[];
  let persons: { personId: string; code: string }[];
  let owners: Map<string, string | null>;
  const keyOf = (path: string) => inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path });

  beforeAll(async () => {
    // Prepare: persons imported, every file uploaded first
    studio = await createTestTenant();
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        persons: Array.from({ length: PERSONS }, (_, index) => ({
          name: `Shot Person ${index}`,
          employeeId: `E-${index}`,
        })),
      },
    });
    persons = imported.body.persons.map((person: { personId: string; code: string }) => ({
      personId: person.personId,
      code: person.code,
    }));
    files = await shootFiles(persons.map((person) => person.code));
    owners = expectedOwners(files, new Map(persons.map((person) => [person.code, person.personId])), keyOf);
    for (const file of files) await uploadObject(keyOf(file.path), file.bytes);
    // Act: S3's notifications shuffled, a third of them twice, several records per event, four events at a time
    const deliveries = shuffled([...files, ...files.filter((_, index) => index % 3 === 0)], 20261124);
    const events: S3Event[] = [];
    for (let start = 0; start < deliveries.length; start += 3) {
      events.push({
        Records: deliveries.slice(start, start + 3).flatMap((file) => objectCreatedEvent(keyOf(file.path)).Records),
      });
    }
    for (let start = 0; start < events.length; start += 4)
      await Promise.all(events.slice(start, start + 4).map((event) => ingestPhoto(event)));
  }, 180_000);

  it('assigns every portrait after a card to that card’s person, in capture order, and delivers no card', async () => {
    const capturedAt = new Map(files.map((file) => [file.path, file.capturedAt!]));
    for (const person of persons) {
      // Act
      const answer = await api.call(`/groupshoot/${studio.token}/persons/${person.personId}/photos`, {
        headers: studio.serverHeaders,
      });
      // Assess
      const expected = [...owners]
        .filter(([, owner]) => owner === person.personId)
        .map(([path]) => path)
        .sort((a, b) => capturedAt.get(a)!.localeCompare(capturedAt.get(b)!))
        .map((path) => path.split('/').at(-1));
      expect(answer.status).toBe(200);
      expect(expected).toHaveLength(3);
      expect(answer.body.photos.map((photo: { fileName: string }) => photo.fileName)).toEqual(expected);
      expect(
        answer.body.photos.every(
          (photo: { width: number; height: number }) => photo.width === 1600 && photo.height === 1067,
        ),
      ).toBe(true);
    }
  });

  it('lists what belongs to nobody, with the reason, and counts it in the statistics', async () => {
    // Act
    const unassigned = await admin('photo', 'unassigned', '--tenant', studio.slug, '--gallery', studio.token, '--json');
    const stats = await api.call(`/groupshoot/${studio.token}/stats`, { headers: studio.serverHeaders });
    // Assess
    const listed = (unassigned.json() as { photos: { path: string; reason: string }[] }).photos;
    expect(Object.fromEntries(listed.map((photo) => [photo.path, photo.reason]))).toEqual({
      'camera-1/IMG_0001.JPG': 'before_first_card',
      'camera-1/IMG_0002.JPG': 'before_first_card',
      'camera-2/IMG_0001.JPG': 'before_first_card',
      'camera-2/IMG_0002.JPG': 'before_first_card',
      'camera-1/IMG_9002.JPG': 'unknown_code',
      'camera-1/IMG_9003.JPG': 'unknown_code',
      'phone/no-exif.jpg': 'no_capture_time',
      'phone/notes.jpg': 'unreadable',
    });
    expect(stats.body.photos).toEqual({ total: PERSONS * 3, unassigned: 8, withheld: 0, cards: PERSONS + 1 });
    expect(stats.body.persons.withPhotos).toBe(PERSONS);
  });

  it('stores the thumbnail the studio console shows of every photo and card it could read, and none of a file that is no image', async () => {
    // Act
    const stored = await Promise.all(
      files.map(async (file) => ({
        path: file.path,
        thumbnail: await findMediaObject(thumbnailKey(keyOf(file.path), THUMBNAIL_SIZE)),
      })),
    );
    // Assess
    const missing = stored.filter((each) => !each.thumbnail).map((each) => each.path);
    expect(missing).toEqual(['phone/notes.jpg']);
    for (const { thumbnail } of stored.filter((each) => each.thumbnail)) {
      const { width, height, format } = await sharp(thumbnail!.bytes).metadata();
      expect([format, Math.max(width, height) <= THUMBNAIL_SIZE]).toEqual(['jpeg', true]);
    }
  });

  it('gives an unassigned photo to a person by hand, through the admin CLI', async () => {
    // Prepare
    const person = persons[0]!;
    const photoId = photoIdOf(keyOf('camera-2/IMG_0001.JPG'));
    // Act
    const assigned = await admin(
      'photo',
      'assign',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--photo',
      photoId,
      '--person',
      person.personId,
    );
    // Assess
    expect(assigned.code).toBe(0);
    const answer = await api.call(`/groupshoot/${studio.token}/persons/${person.personId}/photos`, {
      headers: studio.serverHeaders,
    });
    expect(answer.body.photos.map((photo: { photoId: string }) => photo.photoId)).toContain(photoId);
    const card = await admin(
      'photo',
      'assign',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--photo',
      photoIdOf(keyOf('camera-1/IMG_9001.JPG')),
      '--person',
      person.personId,
    );
    expect(card.code).toBe(2);
    expect(card.err.join('\n')).toMatch(/camera card/);
  });
});
