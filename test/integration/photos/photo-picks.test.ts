import { createGallery, updateGallerySettings } from '#lib/galleries/store/galleries';
import { ERROR_CATALOG } from '#lib/http/errors';
import { getPerson } from '#lib/persons/store/persons';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { listPhotos } from '#lib/photos/common/store/photos';
import { erasePersons } from '#lib/privacy/erasure';
import { keys } from '../../support/table-keys';
import { queryPartition, updateExistingItem } from '#lib/platform/table/queries';
import { admin } from '../../support/admin';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpeg } from '../../support/media';
import { type Participant, givePhoto, importParticipants } from '../../support/photo-participants';

/**
 * Picking the portrait (docs/photos.md#picking-the-portrait): the participant's pickPhoto action
 * of POST /group-shoot, by photo link or by access code and second factor, over HTTP against the
 * local API (answers held to the OpenAPI document); the photographer's `admin photo pick`; the
 * pick in GET …/persons/{personId}/photos and the photo.picked event in the outbox.
 */
const api = useLocalApi();

const post = (studio: TestTenant, body: Record<string, unknown>, token = studio.token) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { token, ...body } });
const pick = (studio: TestTenant, body: Record<string, unknown>, token = studio.token) =>
  post(studio, { action: 'pickPhoto', ...body }, token);
const serverPhotos = (studio: TestTenant, personId: string) =>
  api.call(`/groupshoot/${studio.token}/persons/${personId}/photos`, { headers: studio.serverHeaders });

async function linkOf(studio: TestTenant, personId: string, token = studio.token): Promise<string> {
  return signPhotoLink(
    await photoLinkKey(),
    { tenantId: studio.tenant.tenantId, galleryToken: token, personId },
    Date.now(),
  ).photoLink;
}

async function photoIdsOf(studio: TestTenant, personId: string): Promise<string[]> {
  return (await listPhotos({ tenantId: studio.tenant.tenantId, token: studio.token }, personId)).map(
    (photo) => photo.photoId,
  );
}

/** The photo.picked events of the person in the gallery's outbox, oldest first. */
async function pickedEvents(studio: TestTenant, personId: string) {
  const items = await queryPartition(keys.eventsOfGallery(studio.tenant.tenantId, studio.token));
  return items
    .filter((item) => item.type === 'photo.picked' && item.personId === personId)
    .sort((a, b) => String(a.eventId).localeCompare(String(b.eventId)));
}

const pickedFlags = (answer: { body: { photos: { photoId: string; picked: boolean }[] } }) =>
  answer.body.photos.map((photo) => [photo.photoId, photo.picked]);

describe('POST /group-shoot pickPhoto and admin photo pick', () => {
  let studio: TestTenant;
  let ada: Participant;
  let grace: Participant;
  let linus: Participant;
  let adaPhotos: string[];
  let gracePhotos: string[];

  beforeAll(async () => {
    studio = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: {
        photoLookups: { limit: 500, windowMs: 60_000 },
        photoLookupFailuresPerSite: { limit: 500, windowMs: 60_000 },
      },
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: true },
    });
    [ada, grace, linus] = (await importParticipants(api.call, studio, studio.token, [
      { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1' },
      { name: 'Grace Hopper', employeeId: 'E-2' },
      { name: 'Linus Picker', email: 'linus@example.com' },
    ])) as [Participant, Participant, Participant];
    await givePhoto(studio, studio.token, ada.personId, 'ada-1.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, ada.personId, 'ada-2.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, ada.personId, 'ada-3.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, grace.personId, 'grace-1.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, grace.personId, 'grace-2.jpg', makeJpeg(16, 16));
    await givePhoto(studio, studio.token, linus.personId, 'linus-1.jpg', makeJpeg(16, 16));
    adaPhotos = await photoIdsOf(studio, ada.personId);
    gracePhotos = await photoIdsOf(studio, grace.personId);
  });

  it('shows no pick before there is one: pickedPhotoId null, every photo picked false, each with its ID', async () => {
    // Act
    const server = await serverPhotos(studio, ada.personId);
    const participant = await post(studio, { action: 'myPhotos', code: ada.code, email: 'ada@example.com' });
    // Assess
    expect([server.status, server.body.pickedPhotoId]).toEqual([200, null]);
    expect(pickedFlags(server)).toEqual(adaPhotos.map((photoId) => [photoId, false]));
    expect([participant.status, pickedFlags(participant)]).toEqual([200, adaPhotos.map((photoId) => [photoId, false])]);
  });

  it('records a pick through a photo link, answers the photos with it marked, and shows it to the server-side route', async () => {
    // Act
    const answer = await pick(studio, { photoLink: await linkOf(studio, ada.personId), photoId: adaPhotos[1] });
    const server = await serverPhotos(studio, ada.personId);
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      requestId: expect.any(String),
      name: 'Ada Lovelace',
      urlsExpireAt: expect.any(String),
      photos: expect.any(Array),
      faceConsent: false,
    });
    expect(pickedFlags(answer)).toEqual(adaPhotos.map((photoId, index) => [photoId, index === 1]));
    expect(server.body.pickedPhotoId).toBe(adaPhotos[1]);
    expect(pickedFlags(server)).toEqual(adaPhotos.map((photoId, index) => [photoId, index === 1]));
    const stored = await getPerson({ tenantId: studio.tenant.tenantId, token: studio.token }, ada.personId, {
      consistent: true,
    });
    expect(stored?.pickedPhotoId).toBe(adaPhotos[1]);
  });

  it('records a pick by access code and email, and by access code and employee ID for a person without an email', async () => {
    // Act
    const byEmail = await pick(studio, {
      code: ada.code.toLowerCase(),
      email: ' ADA@example.com ',
      photoId: adaPhotos[2],
    });
    const byEmployeeId = await pick(studio, { code: grace.code, employeeId: 'E-2', photoId: gracePhotos[1] });
    // Assess
    expect([byEmail.status, pickedFlags(byEmail)]).toEqual([
      200,
      adaPhotos.map((photoId, index) => [photoId, index === 2]),
    ]);
    expect([byEmployeeId.status, pickedFlags(byEmployeeId)]).toEqual([
      200,
      gracePhotos.map((photoId, index) => [photoId, index === 1]),
    ]);
    expect((await serverPhotos(studio, grace.personId)).body.pickedPhotoId).toBe(gracePhotos[1]);
  });

  it('refuses a wrong pair as myPhotos does, and records nothing', async () => {
    // Prepare
    const before = (await serverPhotos(studio, grace.personId)).body.pickedPhotoId;
    // Act
    const wrongFactor = await pick(studio, { code: grace.code, employeeId: 'E-1', photoId: gracePhotos[0] });
    const noFactor = await pick(studio, { code: grace.code, photoId: gracePhotos[0] });
    // Assess
    for (const answer of [wrongFactor, noFactor])
      expect([answer.status, answer.body.error]).toEqual([404, 'photos_not_found']);
    expect((await serverPhotos(studio, grace.personId)).body.pickedPhotoId).toBe(before);
  });

  it("takes a photo link alone as the link holder's right, in a gallery whose lookups by code are off (the default): no code is asked, a wrong one beside the link is ignored", async () => {
    // Prepare: a gallery as created, with photoAccess at its default (no lookups by code)
    const linkOnly = await createTestTenant();
    const [mia] = (await importParticipants(api.call, linkOnly, linkOnly.token, [
      { name: 'Mia Forwarded', email: 'mia@example.com' },
    ])) as [Participant];
    await givePhoto(linkOnly, linkOnly.token, mia.personId, 'mia-1.jpg', makeJpeg(16, 16));
    await givePhoto(linkOnly, linkOnly.token, mia.personId, 'mia-2.jpg', makeJpeg(16, 16));
    const miaPhotos = await photoIdsOf(linkOnly, mia.personId);
    const miaLink = await linkOf(linkOnly, mia.personId);
    // Act
    const byCode = await pick(linkOnly, { code: mia.code, email: 'mia@example.com', photoId: miaPhotos[0] });
    const byLinkAlone = await pick(linkOnly, { photoLink: miaLink, photoId: miaPhotos[1] });
    const byLinkWithWrongCode = await pick(linkOnly, {
      photoLink: miaLink,
      code: 'ZZZZ',
      email: 'someone-else@example.com',
      photoId: miaPhotos[0],
    });
    // Assess
    expect([byCode.status, byCode.body.error]).toEqual([403, 'photo_lookup_by_code_disabled']);
    expect([byLinkAlone.status, pickedFlags(byLinkAlone)]).toEqual([
      200,
      miaPhotos.map((photoId, index) => [photoId, index === 1]),
    ]);
    expect([byLinkWithWrongCode.status, pickedFlags(byLinkWithWrongCode)]).toEqual([
      200,
      miaPhotos.map((photoId, index) => [photoId, index === 0]),
    ]);
    const events = await pickedEvents(linkOnly, mia.personId);
    expect(events.map((event) => event.data)).toEqual(
      [miaPhotos[1], miaPhotos[0]].map((photoId) => ({ personId: mia.personId, photoId, pickedBy: 'participant' })),
    );
  });

  it('lets the photographer pick with admin photo pick, and a later pick by either replace the earlier one', async () => {
    // Act
    const byPhotographer = await admin(
      'photo',
      'pick',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--person',
      ada.personId,
      '--photo',
      adaPhotos[0]!,
      '--json',
    );
    const afterPhotographer = (await serverPhotos(studio, ada.personId)).body.pickedPhotoId;
    const byParticipant = await pick(studio, { photoLink: await linkOf(studio, ada.personId), photoId: adaPhotos[1] });
    const afterParticipant = (await serverPhotos(studio, ada.personId)).body.pickedPhotoId;
    // Assess
    expect([byPhotographer.code, byPhotographer.json()]).toEqual([
      0,
      { personId: ada.personId, photoId: adaPhotos[0], pickedBy: 'photographer' },
    ]);
    expect(afterPhotographer).toBe(adaPhotos[0]);
    expect(byParticipant.status).toBe(200);
    expect(afterParticipant).toBe(adaPhotos[1]);
  });

  it('announces each pick with a photo.picked event naming the person, the photo and who picked it', async () => {
    // Prepare
    const seen = (await pickedEvents(studio, linus.personId)).length;
    const [linusPhoto] = await photoIdsOf(studio, linus.personId);
    // Act
    await pick(studio, { code: linus.code, email: 'linus@example.com', photoId: linusPhoto });
    await admin(
      'photo',
      'pick',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--person',
      linus.personId,
      '--photo',
      linusPhoto!,
    );
    // Assess
    const events = (await pickedEvents(studio, linus.personId)).slice(seen);
    expect(events.map((event) => [event.galleryToken, event.personId, event.data])).toEqual([
      [studio.token, linus.personId, { personId: linus.personId, photoId: linusPhoto, pickedBy: 'participant' }],
      [studio.token, linus.personId, { personId: linus.personId, photoId: linusPhoto, pickedBy: 'photographer' }],
    ]);
  });

  it('erases the pick and its photo.picked events with the person', async () => {
    // Prepare
    const [erin] = await importParticipants(api.call, studio, studio.token, [
      { name: 'Erin Erased', email: 'erin@example.com' },
    ]);
    await givePhoto(studio, studio.token, erin!.personId, 'erin.jpg', makeJpeg(16, 16));
    const [erinPhoto] = await photoIdsOf(studio, erin!.personId);
    const picked = await pick(studio, { photoLink: await linkOf(studio, erin!.personId), photoId: erinPhoto });
    expect([picked.status, await pickedEvents(studio, erin!.personId)]).toEqual([
      200,
      [expect.objectContaining({ type: 'photo.picked' })],
    ]);
    // Act
    await erasePersons({ tenantId: studio.tenant.tenantId, token: studio.token }, { personId: erin!.personId });
    // Assess
    expect(await pickedEvents(studio, erin!.personId)).toEqual([]);
    expect(
      await getPerson({ tenantId: studio.tenant.tenantId, token: studio.token }, erin!.personId, { consistent: true }),
    ).toBeUndefined();
  });

  it("gives 404 photo_not_found for another person's photo or an unknown one, records nothing and sends no event", async () => {
    // Prepare
    const before = (await serverPhotos(studio, grace.personId)).body.pickedPhotoId;
    const eventsBefore = (await pickedEvents(studio, grace.personId)).length;
    // Act
    const othersByLink = await pick(studio, { photoLink: await linkOf(studio, grace.personId), photoId: adaPhotos[0] });
    const othersByCode = await pick(studio, { code: grace.code, employeeId: 'E-2', photoId: adaPhotos[0] });
    const unknown = await pick(studio, {
      code: grace.code,
      employeeId: 'E-2',
      photoId: 'pho_000000000000000000000000',
    });
    const byPhotographer = await admin(
      'photo',
      'pick',
      '--tenant',
      studio.slug,
      '--gallery',
      studio.token,
      '--person',
      grace.personId,
      '--photo',
      adaPhotos[0]!,
    );
    // Assess
    for (const answer of [othersByLink, othersByCode, unknown]) {
      expect([answer.status, answer.body]).toEqual([
        404,
        {
          ok: false,
          error: 'photo_not_found',
          message: ERROR_CATALOG.photo_not_found.message,
          requestId: expect.any(String),
        },
      ]);
    }
    expect(byPhotographer.code).not.toBe(0);
    expect(byPhotographer.err.join('\n')).toContain(`has no photo "${adaPhotos[0]}"`);
    expect((await serverPhotos(studio, grace.personId)).body.pickedPhotoId).toBe(before);
    expect(await pickedEvents(studio, grace.personId)).toHaveLength(eventsBefore);
  });

  it('gives 403 photo_link_invalid to a link that is forged, of another gallery, or of another tenant', async () => {
    // Prepare
    const sibling = await createGallery(studio.tenant.tenantId, { ...studio.gallery, galleryName: 'Sibling' });
    const forged = signPhotoLink(
      'another key',
      { tenantId: studio.tenant.tenantId, galleryToken: studio.token, personId: ada.personId },
      Date.now(),
    ).photoLink;
    // Act
    const answers = [
      await pick(studio, { photoLink: forged, photoId: adaPhotos[0] }),
      await pick(studio, { photoLink: 'not-a-link', photoId: adaPhotos[0] }),
      await pick(studio, { photoLink: await linkOf(studio, ada.personId, sibling.token), photoId: adaPhotos[0] }),
      await pick(studio, { photoLink: await linkOf(studio, ada.personId), photoId: adaPhotos[0] }, sibling.token),
    ];
    // Assess
    for (const answer of answers) expect([answer.status, answer.body.error]).toEqual([403, 'photo_link_invalid']);
  });

  it("keeps tenants apart: another tenant's gallery, person and photo are invisible to a pick", async () => {
    // Prepare
    const other = await createTestTenant();
    const [olga] = await importParticipants(api.call, other, other.token, [
      { name: 'Olga Other', email: 'olga@example.com' },
    ]);
    await givePhoto(other, other.token, olga!.personId, 'olga.jpg', makeJpeg(16, 16));
    const [olgaPhoto] = await photoIdsOf(other, olga!.personId);
    const olgaLink = signPhotoLink(
      await photoLinkKey(),
      { tenantId: other.tenant.tenantId, galleryToken: other.token, personId: olga!.personId },
      Date.now(),
    ).photoLink;
    // Act: through this tenant, naming the other's gallery, link and photo
    const otherGallery = await pick(studio, { photoLink: olgaLink, photoId: olgaPhoto }, other.token);
    const otherLinkHere = await pick(studio, { photoLink: olgaLink, photoId: olgaPhoto });
    const otherPhotoForOwn = await pick(studio, { photoLink: await linkOf(studio, ada.personId), photoId: olgaPhoto });
    const byPhotographer = await admin(
      'photo',
      'pick',
      '--tenant',
      studio.slug,
      '--gallery',
      other.token,
      '--person',
      olga!.personId,
      '--photo',
      olgaPhoto!,
    );
    // Assess
    expect([otherGallery.status, otherGallery.body.error]).toEqual([404, 'gallery_not_found']);
    expect([otherLinkHere.status, otherLinkHere.body.error]).toEqual([403, 'photo_link_invalid']);
    expect([otherPhotoForOwn.status, otherPhotoForOwn.body.error]).toEqual([404, 'photo_not_found']);
    expect(byPhotographer.code).not.toBe(0);
    const olgaNow = await api.call(`/groupshoot/${other.token}/persons/${olga!.personId}/photos`, {
      headers: other.serverHeaders,
    });
    expect(olgaNow.body.pickedPhotoId).toBeNull();
  });

  it("counts a pick whose photo is no longer the person's as none", async () => {
    // Prepare: a pick naming a photo the person does not have, as after a late camera card moved it away
    await updateExistingItem(keys.person(studio.tenant.tenantId, studio.token, grace.personId), {
      pickedPhotoId: 'pho_ffffffffffffffffffffffff',
    });
    // Act
    const server = await serverPhotos(studio, grace.personId);
    const participant = await post(studio, { action: 'myPhotos', code: grace.code, employeeId: 'E-2' });
    // Assess
    expect(server.body.pickedPhotoId).toBeNull();
    expect(pickedFlags(server).every(([, picked]) => picked === false)).toBe(true);
    expect(pickedFlags(participant).every(([, picked]) => picked === false)).toBe(true);
  });

  it('records no pick for a lookup by code past its budget of wrong pairs, and answers it as myPhotos does', async () => {
    // Prepare: one wrong pair spends the code's budget
    const limited = await createTestTenant();
    await updateGallerySettings(limited.tenant.tenantId, limited.token, {
      publicLimits: { photoLookupFailuresPerCode: { limit: 1, windowMs: 60 * 60_000 } },
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    const [max] = await importParticipants(api.call, limited, limited.token, [
      { name: 'Max Budget', email: 'max@example.com' },
    ]);
    await givePhoto(limited, limited.token, max!.personId, 'max.jpg', makeJpeg(16, 16));
    const [maxPhoto] = await photoIdsOf(limited, max!.personId);
    const wrong = await pick(limited, { code: max!.code, email: 'someone.else@example.com', photoId: maxPhoto });
    // Act: the right pair, past the budget
    const right = await pick(limited, { code: max!.code, email: 'max@example.com', photoId: maxPhoto });
    // Assess
    expect([wrong.status, wrong.body.error]).toEqual([404, 'photos_not_found']);
    expect([right.status, right.body]).toEqual([
      200,
      { ok: true, photoLinkRequested: true, requestId: expect.any(String) },
    ]);
    const stored = await getPerson({ tenantId: limited.tenant.tenantId, token: limited.token }, max!.personId, {
      consistent: true,
    });
    expect(stored?.pickedPhotoId).toBeUndefined();
    expect(await pickedEvents(limited, max!.personId)).toEqual([]);
  });

  it.each([
    ['no photoId', { photoLink: 'x.1.y' }, 'photoId'],
    ['a photoId that is a number', { photoLink: 'x.1.y', photoId: 7 }, 'photoId'],
    ['a photoId over its length', { photoLink: 'x.1.y', photoId: 'p'.repeat(65) }, 'photoId'],
    ['neither photoLink nor code', { photoId: 'pho_000000000000000000000000' }, 'photoLink'],
    ['a blank photoLink', { photoLink: ' ', photoId: 'pho_000000000000000000000000' }, 'photoLink'],
    ['a malformed code', { code: '!', email: 'ada@example.com', photoId: 'pho_000000000000000000000000' }, 'code'],
  ])('refuses %s with 400 invalid_field', async (_case, body, field) => {
    const answer = await pick(studio, body);
    expect([answer.status, answer.body.error, answer.body.field]).toEqual([400, 'invalid_field', field]);
  });
});
