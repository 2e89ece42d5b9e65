import { request } from 'node:http';
import sharp from 'sharp';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { listPhotos } from '#lib/photos/store/photos';
import { type Studio, startStudio } from '../../scripts/studio/studio-server';
import { type TestTenant, createTestTenant } from '../support/factories';
import { reviewShoot } from '../support/review-shoot';
import type { Upload } from '../support/shoot-uploads';
import { useTestTable } from '../support/test-table';

useTestTable();

/** A GET with a Host header of our choosing (fetch sets its own). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    call.on('error', reject);
    call.end();
  });
}

/** A JSON answer of the console, as the page reads it. */
const answerOf = async (url: string): Promise<any> => (await fetch(url)).json();

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('studio console (npm run studio)', () => {
  let tenant: TestTenant;
  let shoot: Awaited<ReturnType<typeof reviewShoot>>['shoot'];
  let uploads: Upload[];
  let withheld: Upload;
  let studio: Studio;
  let api: string;

  beforeAll(async () => {
    tenant = await createTestTenant();
    ({ shoot, uploads, withheld } = await reviewShoot(tenant));
    studio = await startStudio({ tenant: tenant.slug });
    api = `${studio.url}api/galleries/${shoot.scope.token}`;
  });

  afterAll(async () => {
    await studio?.close();
  });

  it('answers 403 to every request without the session secret or at another host name, and sends the security headers', async () => {
    // Prepare
    const origin = `http://127.0.0.1:${studio.port}`;
    const wrongSecret = 'x'.repeat(studio.secret.length);
    // Act
    const statuses = await Promise.all(
      ['/', '/studio.js', '/api/galleries', `/api/galleries/${shoot.scope.token}/review`, `/${wrongSecret}/`, `/${wrongSecret}/api/galleries`, `/${studio.secret.slice(1)}/api/galleries`].map(
        async (path) => (await fetch(origin + path)).status,
      ),
    );
    const action = await post(`${origin}/${wrongSecret}/api/galleries/${shoot.scope.token}/photos/${withheld.facts.photoId}/release`, {});
    const rebound = await getWithHost(studio.url, `studio.example:${studio.port}`);
    const page = await fetch(studio.url);
    // Assess
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect([action.status, rebound]).toEqual([403, 403]);
    expect(await action.json()).toMatchObject({ ok: false, error: 'forbidden' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(new URL(studio.url).hostname).toBe('127.0.0.1');
  });

  it('lists the galleries with their days, the review queue with counts, reasons and cards, and the persons, and draws a small thumbnail without metadata', async () => {
    // Act
    const galleries = await answerOf(`${studio.url}api/galleries`);
    const queue = await answerOf(`${api}/review`);
    const thumbnail = await fetch(`${api}/thumbnails/${withheld.facts.photoId}`);
    const persons = await answerOf(`${api}/persons`);
    const withoutImage = await fetch(`${api}/thumbnails/${uploads.find((upload) => upload.card.kind === 'photo' && upload !== withheld)!.facts.photoId}`);
    // Assess
    expect(galleries).toMatchObject({ ok: true, tenant: tenant.slug });
    expect(galleries.galleries).toContainEqual({ token: shoot.scope.token, name: 'Shoot', isGroupShoot: true, days: [] });
    const days = galleries.galleries.flatMap((gallery: { days: unknown[] }) => gallery.days);
    expect(days).toContainEqual(expect.objectContaining({ label: 'First day', booked: 0, capacity: 5 }));
    expect(days).toContainEqual(expect.objectContaining({ label: 'Second day', booked: 0, capacity: null }));
    expect(queue.counts).toEqual({ withheld: 1, unassigned: 10 });
    expect(queue.photos).toHaveLength(11);
    expect(queue.photos).toContainEqual(
      expect.objectContaining({
        photoId: withheld.facts.photoId,
        reason: 'face_mismatch',
        heldFor: shoot.persons[0]!.personId,
        card: expect.objectContaining({ code: shoot.persons[0]!.code }),
        candidates: [{ personId: shoot.persons[1]!.personId, distance: 0.31 }],
      }),
    );
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const drawn = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect([drawn.format, drawn.width, drawn.height, drawn.exif]).toEqual(['jpeg', 320, 213, undefined]);
    expect(withoutImage.status).toBe(404);
    expect(persons.persons).toEqual(shoot.persons.map((person, index) => ({ personId: person.personId, name: `Person ${index}`, code: person.code, employeeId: null })));
  });

  it('releases the withheld photo and assigns an unassigned one through the API, as the CLI does, and refuses what the CLI refuses', async () => {
    // Prepare
    const [first, second] = shoot.persons;
    const nobodys = uploads.find((upload) => upload.card.kind === 'photo' && upload.facts.capturedAt === null)!;
    // Act
    const released = await post(`${api}/photos/${withheld.facts.photoId}/release`, {});
    const assigned = await post(`${api}/photos/${nobodys.facts.photoId}/assign`, { personId: second!.personId });
    const notWithheld = await post(`${api}/photos/${uploads.find((upload) => upload.card.kind === 'photo' && upload.facts.capturedAt === null && upload !== nobodys)!.facts.photoId}/release`, {});
    const unknownPerson = await post(`${api}/photos/${nobodys.facts.photoId}/assign`, { personId: 'per_nobody' });
    const notJson = await fetch(`${api}/photos/${nobodys.facts.photoId}/assign`, { method: 'POST', body: 'personId=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const badPath = await fetch(`${studio.url}api/galleries/%E0/review`);
    const queue = await answerOf(`${api}/review`);
    // Assess
    expect(badPath.status).toBe(400);
    expect([released.status, assigned.status]).toEqual([200, 200]);
    expect(await assigned.json()).toEqual({ ok: true, photoId: nobodys.facts.photoId, personId: second!.personId });
    expect((await listPhotos(shoot.scope, first!.personId)).map((photo) => photo.photoId)).toContain(withheld.facts.photoId);
    expect((await listPhotos(shoot.scope, second!.personId)).map((photo) => photo.photoId)).toContain(nobodys.facts.photoId);
    expect((await getGalleryConfiguration(shoot.scope.tenantId, shoot.scope.token))!.counters.photosWithheld).toBe(0);
    expect(queue.counts).toEqual({ withheld: 0, unassigned: 9 });
    expect([notWithheld.status, ((await notWithheld.json()) as { message: string }).message]).toEqual([400, expect.stringMatching(/is not withheld/)]);
    expect([unknownPerson.status, ((await unknownPerson.json()) as { error: string }).error]).toEqual([404, 'not_found']);
    expect(notJson.status).toBe(415);
  });
});
