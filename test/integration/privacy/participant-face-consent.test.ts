import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getReferenceFace } from '#lib/faces/store/reference-faces';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { getPerson } from '#lib/persons/store/persons';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { keys } from '../../support/table-keys';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { candidatesOf, withheldShoot } from '../../support/face-candidates';

/**
 * The participant's own withdrawal of face consent (docs/personal-data.md#reference-faces): the
 * withdrawFaceConsent action of POST /group-shoot, by photo link or by access code and email,
 * over HTTP against the local API (answers held to the OpenAPI document). After it the consent is
 * false, the reference face is gone, and no shoot photo's face candidates name the person.
 */
const api = useLocalApi();

const DAY_MS = 24 * 3600 * 1000;

/** withheldShoot, with its gallery asking for face consent, taking access codes with email, and the forgotten person consenting. */
async function consentingShoot(studio?: TestTenant) {
  const shoot = await withheldShoot(studio);
  await updateGallerySettings(shoot.scope.tenantId, shoot.scope.token, {
    granularConsents: { face: true, notification: false, hrExport: false },
    photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
  });
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.person(shoot.scope.tenantId, shoot.scope.token, shoot.forgotten.personId),
      UpdateExpression: 'SET consents.faceConsent = :yes',
      ExpressionAttributeValues: { ':yes': true },
    }),
  );
  return shoot;
}

async function linkOf(scope: GalleryScope, personId: string, at = Date.now()): Promise<string> {
  return signPhotoLink(await photoLinkKey(), { tenantId: scope.tenantId, galleryToken: scope.token, personId }, at)
    .photoLink;
}

const post = (studio: TestTenant, scope: GalleryScope, body: Record<string, unknown>) =>
  api.call('/group-shoot', { method: 'POST', headers: studio.publicHeaders, body: { token: scope.token, ...body } });

const withdraw = (studio: TestTenant, scope: GalleryScope, proof: Record<string, unknown>) =>
  post(studio, scope, { action: 'withdrawFaceConsent', ...proof });

/** What a withdrawal changes: the person's consent, their reference face, the withheld photo's candidates. */
async function faceState(scope: GalleryScope, personId: string, photoId: string) {
  return {
    consent: (await getPerson(scope, personId, { consistent: true }))?.consents.faceConsent,
    reference: (await getReferenceFace(scope, personId)) !== undefined,
    candidates: (await candidatesOf(scope, photoId)).stored,
  };
}

describe('POST /group-shoot withdrawFaceConsent', () => {
  it('withdraws by photo link: consent false, reference face gone, out of every candidate list; a second call answers the same and changes nothing', async () => {
    // Prepare
    const { studio, scope, forgotten, kept, withheld } = await consentingShoot();
    const photoLink = await linkOf(scope, forgotten.personId);
    const before = await post(studio, scope, { action: 'photosByLink', photoLink });
    // Act
    const first = await withdraw(studio, scope, { photoLink });
    const afterFirst = await faceState(scope, forgotten.personId, withheld.facts.photoId);
    const second = await withdraw(studio, scope, { photoLink });
    const afterSecond = await faceState(scope, forgotten.personId, withheld.facts.photoId);
    const photos = await post(studio, scope, { action: 'photosByLink', photoLink });
    // Assess
    expect([before.status, before.body.faceConsent]).toEqual([200, true]);
    expect([first.status, first.body]).toEqual([
      200,
      { ok: true, faceConsent: false, referenceDeleted: true, requestId: expect.any(String) },
    ]);
    const remaining = [{ personId: kept.personId, distance: 0.45 }];
    expect(afterFirst).toEqual({ consent: false, reference: false, candidates: remaining });
    expect([second.status, second.body]).toEqual([
      200,
      { ok: true, faceConsent: false, referenceDeleted: false, requestId: expect.any(String) },
    ]);
    expect(afterSecond).toEqual(afterFirst);
    expect([photos.status, photos.body.faceConsent]).toEqual([200, false]);
    // The other consenting person keeps their consent's effects.
    expect(await getReferenceFace(scope, kept.personId)).toBeDefined();
  });

  it('withdraws by access code and email, the credential myPhotos takes', async () => {
    // Prepare
    const { studio, scope, forgotten, kept, withheld } = await consentingShoot();
    const pair = { code: forgotten.code.toLowerCase(), email: ' PERSON1@example.com ' };
    const before = await post(studio, scope, { action: 'myPhotos', ...pair });
    // Act
    const answer = await withdraw(studio, scope, pair);
    // Assess
    expect([before.status, before.body.faceConsent]).toEqual([200, true]);
    expect([answer.status, answer.body.faceConsent, answer.body.referenceDeleted]).toEqual([200, false, true]);
    expect(await faceState(scope, forgotten.personId, withheld.facts.photoId)).toEqual({
      consent: false,
      reference: false,
      candidates: [{ personId: kept.personId, distance: 0.45 }],
    });
    expect((await post(studio, scope, { action: 'myPhotos', ...pair })).body.faceConsent).toBe(false);
  });

  it("refuses an expired or forged link, another gallery's link and a wrong pair as photosByLink and myPhotos do, and withdraws nothing", async () => {
    // Prepare: the studio's own gallery (createTestTenant's) beside the shoot's
    const { studio, scope, forgotten, withheld } = await consentingShoot();
    const otherGallery = { tenantId: studio.tenant.tenantId, token: studio.token };
    const valid = await linkOf(scope, forgotten.personId);
    const [personId, expiry] = valid.split('.');
    const before = await faceState(scope, forgotten.personId, withheld.facts.photoId);
    // Act
    const refusals = [
      await withdraw(studio, scope, { photoLink: await linkOf(scope, forgotten.personId, Date.now() - 8 * DAY_MS) }),
      await withdraw(studio, scope, { photoLink: `${personId}.${expiry}.${'A'.repeat(43)}` }),
      await withdraw(studio, scope, { photoLink: await linkOf(otherGallery, forgotten.personId) }),
      await withdraw(studio, scope, { code: forgotten.code, email: 'person2@example.com' }),
      await withdraw(studio, scope, { code: forgotten.code }),
    ];
    // Assess
    expect(refusals.map((answer) => [answer.status, answer.body.error])).toEqual([
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
      [403, 'photo_link_invalid'],
      [404, 'photos_not_found'],
      [404, 'photos_not_found'],
    ]);
    expect(before).toEqual({ consent: true, reference: true, candidates: expect.any(Array) });
    expect(await faceState(scope, forgotten.personId, withheld.facts.photoId)).toEqual(before);
  });

  it("never reaches a person with another tenant's slug (gallery_not_found), nor with a body that names nobody (invalid_field)", async () => {
    // Prepare
    const { studio, scope, forgotten, withheld } = await consentingShoot();
    const otherStudio = await createTestTenant();
    const photoLink = await linkOf(scope, forgotten.personId);
    const before = await faceState(scope, forgotten.personId, withheld.facts.photoId);
    // Act
    const foreign = await withdraw(otherStudio, scope, { photoLink });
    const nobody = await withdraw(studio, scope, {});
    const badLink = await withdraw(studio, scope, { photoLink: 42 });
    // Assess
    expect([foreign.status, foreign.body.error]).toEqual([404, 'gallery_not_found']);
    expect([nobody.status, nobody.body.error, nobody.body.field]).toEqual([400, 'invalid_field', 'photoLink']);
    expect([badLink.status, badLink.body.error, badLink.body.field]).toEqual([400, 'invalid_field', 'photoLink']);
    expect(await faceState(scope, forgotten.personId, withheld.facts.photoId)).toEqual(before);
  });

  it('answers the same success where the gallery does not ask for face consent, recording the consent false', async () => {
    // Prepare: withheldShoot's gallery asks for no face consent; its imported persons were never asked
    const { studio, scope, first, withheld } = await withheldShoot();
    const photoLink = await linkOf(scope, first.personId);
    expect((await post(studio, scope, { action: 'photosByLink', photoLink })).body.faceConsent).toBe(false);
    // Act
    const answer = await withdraw(studio, scope, { photoLink });
    // Assess
    expect([answer.status, answer.body.faceConsent, answer.body.referenceDeleted]).toEqual([200, false, false]);
    expect(await faceState(scope, first.personId, withheld.facts.photoId)).toEqual({
      consent: false,
      reference: false,
      candidates: expect.any(Array),
    });
  });
});
