import { createGallery, getGalleryConfiguration } from '#lib/galleries/store/galleries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { inboxObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { type CardReading, assignSequence, sequencePosition } from '#lib/photos/sorting/rules/shoot-sequence';
import type { ShootPhotoFacts } from '#lib/photos/sorting/store/shoot-photos';
import { importPersons } from '#lib/persons/import-persons';
import { parseImportRequest } from '#lib/persons/person-schemas';
import type { TestTenant } from './factories';

/** One upload of a synthetic shoot: what ingest would have read from the file. */
export interface Upload {
  facts: ShootPhotoFacts;
  card: CardReading;
}

/**
 * A shoot of two cameras without images: per camera, two photos before the first card, then
 * per person a card and two or three photos, a card with a code nobody has, a card showing two
 * codes, and a photo without capture time. The expected result comes from assignSequence, the
 * rule applied to the whole sequence at once.
 */
export function syntheticShoot(scope: GalleryScope, persons: { personId: string; code: string }[]) {
  const uploads: Upload[] = [];
  let second = 0;
  const shot = (
    camera: string,
    card: CardReading,
    capturedAt:
      | string
      | null = `2026-11-20T10:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}.${String(second % 1000).padStart(3, '0')}Z`,
  ) => {
    second += 1;
    const path = `${camera}/IMG_${String(second).padStart(4, '0')}.JPG`;
    const objectKey = inboxObjectKey({ ...scope, path });
    uploads.push({
      facts: {
        photoId: photoIdOf(objectKey),
        objectKey,
        path,
        fileName: path.split('/')[1]!,
        camera,
        capturedAt,
        width: 6000,
        height: 4000,
        uploadedAt: '2026-11-20T12:00:00.000Z',
      },
      card,
    });
  };
  for (const [cameraIndex, camera] of ['Canon EOS R5 #0331', 'Nikon Z8 #7711'].entries()) {
    shot(camera, { kind: 'photo' });
    shot(camera, { kind: 'photo' });
    for (const person of persons.filter((_, index) => index % 2 === cameraIndex)) {
      shot(camera, { kind: 'card', code: person.code });
      for (let photo = 0; photo < 2 + (person.code.charCodeAt(0) % 2); photo += 1) shot(camera, { kind: 'photo' });
    }
    shot(camera, { kind: 'card', code: 'ZZZZ' });
    shot(camera, { kind: 'photo' });
    shot(camera, { kind: 'ambiguous_card' });
    shot(camera, { kind: 'photo' });
    shot(camera, { kind: 'photo' }, null);
  }
  return uploads;
}

export function expectedOwners(uploads: Upload[], personOfCode: Map<string, string>): Map<string, string | null> {
  const expected = new Map<string, string | null>();
  for (const camera of new Set(uploads.map((upload) => upload.facts.camera))) {
    const sequence = uploads.filter((upload) => upload.facts.camera === camera && upload.facts.capturedAt !== null);
    const owners = assignSequence(
      sequence.map(({ facts, card }) => ({
        position: sequencePosition(facts.capturedAt!, facts.fileName, facts.photoId),
        card:
          card.kind === 'photo'
            ? undefined
            : { personId: card.kind === 'card' ? (personOfCode.get(card.code) ?? null) : null },
      })),
    );
    for (const { facts } of sequence) {
      const owner = owners.get(sequencePosition(facts.capturedAt!, facts.fileName, facts.photoId));
      if (owner) expected.set(facts.photoId, owner.personId);
    }
  }
  for (const { facts, card } of uploads)
    if (facts.capturedAt === null && card.kind === 'photo') expected.set(facts.photoId, null);
  return expected;
}

export async function newShoot(studio: TestTenant, personCount: number) {
  const gallery = await createGallery(studio.tenant.tenantId, {
    galleryName: 'Shoot',
    isGroupShoot: true,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  const scope = { tenantId: studio.tenant.tenantId, token: gallery.token };
  const configuration = (await getGalleryConfiguration(studio.tenant.tenantId, gallery.token))!;
  const imported = await importPersons(
    studio.tenant,
    configuration,
    parseImportRequest({
      persons: Array.from({ length: personCount }, (_, index) => ({
        name: `Person ${index}`,
        email: `person${index}@example.com`,
      })),
    }),
  );
  const persons = imported.persons.map((person) => ({ personId: person.personId, code: person.code }));
  return { scope, persons, personOfCode: new Map(persons.map((person) => [person.code, person.personId])) };
}
