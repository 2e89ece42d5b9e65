import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { inboxObjectKey, photoObjectKey } from '#lib/platform/media-keys';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { cardJpeg, portraitJpeg } from '../../../scripts/samples/synthetic-shoot';

/**
 * A person's photos come in the order they were taken, whatever the order of their upload and
 * of their names: shoot photos sorted from the inbox and photos uploaded under the person's
 * folder alike, by both the server-side photos route and the participant's myPhotos.
 */
const api = useLocalApi();

const camera = { make: 'Canon', model: 'EOS R6', serial: '770001' };
const at = (time: string) => `2026-11-20T${time}Z`;

/** One upload: where, what, with which metadata. */
interface Upload {
  key: string;
  bytes: Buffer;
  metadata?: Record<string, string>;
}

describe("a person's photos, in capture order", () => {
  let studio: TestTenant;
  let person: { personId: string; code: string };

  beforeAll(async () => {
    // Prepare
    studio = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { photoLookups: { limit: 500, windowMs: 60_000 } },
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [{ name: 'Ada Lovelace', email: 'ada@example.com' }] },
    });
    person = imported.body.persons[0];
    const scope = { tenantId: studio.tenant.tenantId, token: studio.token };
    const inbox = (path: string) => inboxObjectKey({ ...scope, path });
    const folder = (fileName: string) => photoObjectKey({ ...scope, personId: person.personId, fileName });
    const shot = (seed: number, time: string) =>
      portraitJpeg({ width: 800, height: 533, seed, capturedAt: at(time), camera });
    // In upload order, which is neither capture order nor name order; the card comes late and takes the photos before it.
    const uploads: Upload[] = [
      { key: folder('plain.jpg'), bytes: makeJpeg(64, 48) },
      { key: inbox('cam/B.JPG'), bytes: await shot(2, '10:00:03.000') },
      {
        key: folder('exif.jpg'),
        bytes: await portraitJpeg({ width: 320, height: 240, seed: 5, capturedAt: at('10:00:02.500'), camera }),
      },
      { key: inbox('cam/A.JPG'), bytes: await shot(1, '10:00:02.000') },
      {
        key: inbox('cam/CARD.JPG'),
        bytes: await cardJpeg({
          width: 1600,
          height: 1067,
          text: person.code,
          size: 0.15,
          capturedAt: at('10:00:00.000'),
          camera,
        }),
      },
      { key: inbox('cam/C.JPG'), bytes: await shot(3, '10:00:01.000') },
      { key: folder('early.jpg'), bytes: makeJpeg(64, 48), metadata: { 'captured-at': at('09:59:59.000') } },
    ];
    // Act
    const uploadedAt = Date.parse(at('12:00:00.000'));
    for (const [index, upload] of uploads.entries()) {
      await uploadObject(upload.key, upload.bytes, upload.metadata);
      await ingestPhoto(objectCreatedEvent(upload.key, new Date(uploadedAt + index * 1000).toISOString()));
    }
  }, 60_000);

  const expected = [
    ['early.jpg', at('09:59:59.000')],
    ['C.JPG', at('10:00:01.000')],
    ['A.JPG', at('10:00:02.000')],
    ['exif.jpg', at('10:00:02.500')],
    ['B.JPG', at('10:00:03.000')],
    ['plain.jpg', null],
  ];

  it('lists them by capture time from metadata or EXIF, those without one last, on GET …/persons/{personId}/photos', async () => {
    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/persons/${person.personId}/photos`, {
      headers: studio.serverHeaders,
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(
      answer.body.photos.map((photo: { fileName: string; capturedAt: string | null }) => [
        photo.fileName,
        photo.capturedAt,
      ]),
    ).toEqual(expected);
  });

  it('answers them in the same order to the participant', async () => {
    // Act
    const answer = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: { action: 'myPhotos', token: studio.token, code: person.code, email: 'ada@example.com' },
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(
      answer.body.photos.map((photo: { fileName: string; capturedAt: string | null }) => [
        photo.fileName,
        photo.capturedAt,
      ]),
    ).toEqual(expected);
  });
});
