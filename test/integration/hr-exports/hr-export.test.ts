import sharp from 'sharp';
import { parse } from 'csv-parse/sync';
import { erasePersons } from '#lib/privacy/erasure';
import { holdingsOfPerson } from '#lib/hr-exports/store/hr-exports';
import { listObjectVersions } from '#lib/platform/media-bucket';
import { portraitCropPrefix } from '#lib/platform/media-keys';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { type HrExportPipeline, startHrExportPipeline } from '../../../scripts/local/local-hr-export-queue';
import { useLocalApi } from '../../support/local-api';
import { admin } from '../../support/admin';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpegWithGps } from '../../support/media';
import { deliverPersonPhoto, hrConsentGallery, importPersons, setPersonFacts, unzip } from '../../support/hr-exports';

const api = useLocalApi();

const SIZE = 96;
const FORMULA_NAME = '=HYPERLINK("http://example.com","click")';

describe('HR export: POST and GET …/hr-exports, built by the export queue', () => {
  let studio: TestTenant;
  let scope: { tenantId: string; token: string };
  let dayId: string;
  let pipeline: HrExportPipeline;
  const ids: Record<string, string> = {};
  const photos: Record<string, string> = {};

  const exportPath = (token: string, exportId = '') =>
    `/groupshoot/${token}/hr-exports${exportId ? `/${exportId}` : ''}`;

  /** Creates an export, lets the queue build it, and answers its state as GET gives it. */
  async function exportAndWait(body: Record<string, unknown>) {
    const created = await api.call(`/group-shoot/checkin/${scope.token}/hr-exports`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body,
    });
    expect([created.status, created.body.status]).toEqual([202, 'queued']);
    await pipeline.settled();
    return api.call(`/group-shoot/checkin/${scope.token}/hr-exports/${created.body.exportId}`, {
      headers: studio.serverHeaders,
    });
  }

  async function download(answer: { body: { downloadUrl: string } }) {
    const response = await fetch(answer.body.downloadUrl);
    expect(response.status).toBe(200);
    return unzip(Buffer.from(await response.arrayBuffer()));
  }

  beforeAll(async () => {
    pipeline = await startHrExportPipeline();
    studio = await createTestTenant();
    const gallery = await hrConsentGallery(studio);
    scope = { tenantId: studio.tenant.tenantId, token: gallery.token };
    dayId = gallery.dayId;
    const rows = [
      {
        key: 'ada',
        name: 'Ada Lovelace',
        employeeId: 'E-1',
        email: 'ada@example.com',
        shootingDayId: dayId,
        consent: true,
        photos: 2,
      },
      { key: 'bob', name: 'Bob Picker', employeeId: 'E-2', shootingDayId: dayId, consent: true, photos: 2 },
      { key: 'carl', name: 'Carl Declined', employeeId: 'E-3', consent: false, photos: 1 },
      { key: 'dora', name: 'Dora Never Asked', employeeId: 'E-4', consent: null, photos: 1 },
      { key: 'eve', name: 'Eve No Photo', employeeId: 'E-5', consent: true, photos: 0 },
      { key: 'finn', name: 'Finn Lowercase', employeeId: 'e-1', consent: true, photos: 1 },
      { key: 'gus', name: 'Gus Slash', employeeId: 'E/7', consent: true, photos: 1 },
      { key: 'hal', name: 'Hal Space', employeeId: 'E 7', consent: true, photos: 1 },
      { key: 'ivy', name: FORMULA_NAME, consent: true, photos: 1 },
    ] as const;
    const personIds = await importPersons(
      api,
      studio,
      scope.token,
      rows.map(({ name, ...row }) => ({
        name,
        ...('employeeId' in row ? { employeeId: row.employeeId } : {}),
        ...('email' in row ? { email: row.email } : {}),
        ...('shootingDayId' in row ? { shootingDayId: row.shootingDayId } : {}),
      })),
    );
    for (const [index, row] of rows.entries()) {
      const personId = personIds[index]!;
      ids[row.key] = personId;
      await setPersonFacts(scope, personId, { hrExportConsent: row.consent });
      for (let shot = 1; shot <= row.photos; shot += 1) {
        photos[`${row.key}${shot}`] = await deliverPersonPhoto(
          scope,
          personId,
          `shot-${shot}.jpg`,
          makeJpegWithGps(300 + shot * 40, 200),
          `2027-05-03T10:0${shot}:00.000Z`,
        );
      }
    }
    // Bob picked his second photo (as the participant or the photographer would).
    await setPersonFacts(scope, ids.bob!, { pickedPhotoId: photos.bob2 });
  });

  afterAll(() => pipeline.stop());

  describe('a gallery export', () => {
    let ready: Awaited<ReturnType<typeof exportAndWait>>;
    let files: Map<string, Buffer>;

    beforeAll(async () => {
      ready = await exportAndWait({ size: SIZE });
      files = await download(ready);
    });

    it('is ready with a download URL that expires, and a report counting who was left out and why', () => {
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual(
        expect.objectContaining({
          status: 'ready',
          size: SIZE,
          shootingDayId: null,
          downloadUrl: expect.any(String),
          downloadUrlExpiresAt: expect.any(String),
          expiresAt: expect.any(String),
        }),
      );
      expect(Date.parse(ready.body.downloadUrlExpiresAt)).toBeLessThanOrEqual(Date.now() + 3600_000);
      expect(Date.parse(ready.body.downloadUrlExpiresAt)).toBeLessThan(Date.parse(ready.body.expiresAt));
      expect(ready.body.report).toEqual(
        expect.objectContaining({
          persons: 9,
          exported: 6,
          skipped: { noConsent: 2, noPhoto: 1 },
          cropsComputed: 6,
          cropsReused: 0,
        }),
      );
    });

    it('holds only the persons who gave hrExportConsent: true, named by employee ID, clashes renamed and reported', () => {
      expect([...files.keys()].sort()).toEqual(
        ['E-1.jpg', 'E-2.jpg', 'E_7-2.jpg', 'E_7.jpg', 'e-1-2.jpg', `${ids.ivy}.jpg`, 'manifest.csv'].sort(),
      );
      expect(ready.body.report.renamed).toEqual([
        { personId: ids.finn, wanted: 'e-1.jpg', fileName: 'e-1-2.jpg' },
        { personId: ids.hal, wanted: 'E_7.jpg', fileName: 'E_7-2.jpg' },
      ]);
    });

    it('crops each portrait square at the asked size, sRGB, without EXIF, GPS or ICC metadata', async () => {
      for (const [name, bytes] of files) {
        if (!name.endsWith('.jpg')) continue;
        const metadata = await sharp(bytes).metadata();
        expect([name, metadata.format, metadata.width, metadata.height, metadata.space]).toEqual([
          name,
          'jpeg',
          SIZE,
          SIZE,
          'srgb',
        ]);
        expect([name, metadata.exif, metadata.icc, metadata.xmp]).toEqual([name, undefined, undefined, undefined]);
      }
    });

    it('writes a manifest whose cells a spreadsheet keeps as text, and takes the pick, else the first photo', () => {
      const rows = parse<Record<string, string>>(files.get('manifest.csv')!, { columns: true, bom: true });
      expect(Object.keys(rows[0]!)).toEqual([
        'employeeId',
        'name',
        'email',
        'file',
        'photoId',
        'takenAt',
        'employeeIdSource',
      ]);
      const byFile = new Map(rows.map((row) => [row.file, row]));
      expect(byFile.get('E-1.jpg')).toEqual({
        employeeId: 'E-1',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        file: 'E-1.jpg',
        photoId: photos.ada1,
        takenAt: '2027-05-03T10:01:00.000Z',
        employeeIdSource: 'hr',
      });
      expect(byFile.get('E-2.jpg')!.photoId).toBe(photos.bob2);
      expect(byFile.get(`${ids.ivy}.jpg`)!.name).toBe(`'${FORMULA_NAME}`);
      expect(byFile.get(`${ids.ivy}.jpg`)!.employeeIdSource).toBe('');
      expect(rows).toHaveLength(6);
    });

    it('announces hr_export.ready through the outbox, naming no person', async () => {
      const events = (await queryPartition(keys.eventsOfGallery(scope.tenantId, scope.token))).filter(
        (item) => item.type === 'hr_export.ready',
      );
      expect(events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            personId: null,
            data: {
              exportId: ready.body.exportId,
              shootingDayId: null,
              exported: 6,
              skipped: { noConsent: 2, noPhoto: 1 },
            },
          }),
        ]),
      );
    });
  });

  it('reuses the crops of an unchanged person on a re-export, and crops again at another size or after a new pick', async () => {
    // Prepare
    await setPersonFacts(scope, ids.ada!, { pickedPhotoId: photos.ada2 });
    // Act
    const again = await exportAndWait({ size: SIZE });
    const otherSize = await exportAndWait({ size: SIZE + 8 });
    // Assess
    expect(again.body.report).toEqual(expect.objectContaining({ exported: 6, cropsComputed: 1, cropsReused: 5 }));
    expect(otherSize.body.report).toEqual(expect.objectContaining({ exported: 6, cropsComputed: 6, cropsReused: 0 }));
  });

  it('takes the portrait the participant picked on My photos (pickPhoto) and the one the photographer picked (admin photo pick)', async () => {
    // Prepare: both had their second photo as the portrait before.
    await setPersonFacts(scope, ids.ada!, { pickedPhotoId: photos.ada2 });
    await setPersonFacts(scope, ids.bob!, { pickedPhotoId: photos.bob2 });
    const adaLink = signPhotoLink(
      await photoLinkKey(),
      { tenantId: scope.tenantId, galleryToken: scope.token, personId: ids.ada! },
      Date.now(),
    ).photoLink;
    // Act
    const byParticipant = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: { action: 'pickPhoto', token: scope.token, photoLink: adaLink, photoId: photos.ada1 },
    });
    const byPhotographer = await admin(
      'photo',
      'pick',
      '--tenant',
      studio.slug,
      '--gallery',
      scope.token,
      '--person',
      ids.bob!,
      '--photo',
      photos.bob1!,
    );
    const ready = await exportAndWait({ shootingDayId: dayId, size: SIZE });
    // Assess
    expect([byParticipant.status, byPhotographer.code]).toEqual([200, 0]);
    const rows = parse<Record<string, string>>((await download(ready)).get('manifest.csv')!, {
      columns: true,
      bom: true,
    });
    expect(rows.map((row) => [row.file, row.photoId]).sort()).toEqual([
      ['E-1.jpg', photos.ada1],
      ['E-2.jpg', photos.bob1],
    ]);
  });

  it('exports one shooting day, at the documented default size of 648 px', async () => {
    const ready = await exportAndWait({ shootingDayId: dayId });
    expect(ready.body).toEqual(expect.objectContaining({ status: 'ready', size: 648, shootingDayId: dayId }));
    expect(ready.body.report).toEqual(
      expect.objectContaining({ persons: 2, exported: 2, skipped: { noConsent: 0, noPhoto: 0 } }),
    );
    const files = await download(ready);
    expect([...files.keys()].sort()).toEqual(['E-1.jpg', 'E-2.jpg', 'manifest.csv']);
    expect((await sharp(files.get('E-1.jpg')).metadata()).width).toBe(648);
  });

  it('refuses with 409 hr_export_consent_not_asked a gallery whose check-in does not ask for the HR consent', async () => {
    const answer = await api.call(exportPath(studio.token), {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {},
    });
    expect([answer.status, answer.body.error]).toEqual([409, 'hr_export_consent_not_asked']);
  });

  it.each([
    [{ size: 63 }, 'invalid_field', 'size'],
    [{ size: 2049 }, 'invalid_field', 'size'],
    [{ size: 'big' }, 'invalid_field', 'size'],
    [{ shootingDayId: 'day_unknown' }, 'invalid_shooting_day', undefined],
  ])('answers 400 to %j', async (body, error, field) => {
    const answer = await api.call(exportPath(scope.token), { method: 'POST', headers: studio.serverHeaders, body });
    expect([answer.status, answer.body.error, answer.body.field]).toEqual([400, error, field]);
  });

  it("answers 404 hr_export_not_found for another gallery's or another tenant's export, and for an unknown ID", async () => {
    // Prepare
    const created = await api.call(exportPath(scope.token), {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { size: SIZE },
    });
    await pipeline.settled();
    const other = await createTestTenant();
    const otherGallery = await hrConsentGallery(other);
    // Act
    const fromOtherTenant = await api.call(exportPath(otherGallery.token, created.body.exportId), {
      headers: other.serverHeaders,
    });
    const fromOtherGallery = await api.call(exportPath(studio.token, created.body.exportId), {
      headers: studio.serverHeaders,
    });
    const withOtherKey = await api.call(exportPath(scope.token, created.body.exportId), {
      headers: other.serverHeaders,
    });
    const unknown = await api.call(exportPath(scope.token, 'hrx_01m95h2r4k6m8p0r2t4v6x8z0b'), {
      headers: studio.serverHeaders,
    });
    const malformed = await api.call(exportPath(scope.token, 'nope'), { headers: studio.serverHeaders });
    // Assess
    expect([fromOtherTenant.status, fromOtherTenant.body.error]).toEqual([404, 'hr_export_not_found']);
    expect([fromOtherGallery.status, fromOtherGallery.body.error]).toEqual([404, 'hr_export_not_found']);
    expect([withOtherKey.status, withOtherKey.body.error]).toEqual([404, 'gallery_not_found']);
    expect([unknown.status, unknown.body.error]).toEqual([404, 'hr_export_not_found']);
    expect([malformed.status, malformed.body.error]).toEqual([404, 'hr_export_not_found']);
    const own = await api.call(exportPath(scope.token, created.body.exportId), { headers: studio.serverHeaders });
    expect(own.body.status).toBe('ready');
  });

  it('npm run admin -- export hr builds an export through the same use case and shows it; export show reads it again', async () => {
    // Act
    const built = await admin(
      'export',
      'hr',
      '--tenant',
      studio.slug,
      '--gallery',
      scope.token,
      '--size',
      '64',
      '--json',
    );
    const shown = await admin(
      'export',
      'show',
      '--tenant',
      studio.slug,
      '--gallery',
      scope.token,
      '--id',
      built.code === 0 ? built.json().exportId : 'none',
      '--json',
    );
    const refused = await admin('export', 'hr', '--tenant', studio.slug, '--gallery', studio.token);
    // Assess
    expect(built.code).toBe(0);
    expect(built.json()).toEqual(
      expect.objectContaining({
        status: 'ready',
        size: 64,
        downloadUrl: expect.any(String),
        report: expect.objectContaining({ exported: 6 }),
      }),
    );
    expect([shown.code, shown.json().status]).toEqual([0, 'ready']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('HR export consent');
  });

  it("erasing a person removes every export that holds them and their cached crops, and leaves the others' crops", async () => {
    // Prepare
    const ready = await exportAndWait({ size: SIZE });
    const objectKey = `hr-exports/${scope.tenantId}/${scope.token}/${ready.body.exportId}.zip`;
    expect(await listObjectVersions(objectKey)).toHaveLength(1);
    // Act
    const receipt = await erasePersons(scope, { personId: ids.ada! });
    // Assess
    expect(receipt.hrExports).toBeGreaterThanOrEqual(5);
    expect(receipt.portraitCropVersions).toBeGreaterThanOrEqual(2);
    const after = await api.call(exportPath(scope.token, ready.body.exportId), { headers: studio.serverHeaders });
    expect(after.body.status).toBe('erased');
    expect(after.body).not.toHaveProperty('downloadUrl');
    expect(after.body).not.toHaveProperty('report');
    expect(await listObjectVersions(objectKey)).toEqual([]);
    expect(await listObjectVersions(`hr-exports/${scope.tenantId}/${scope.token}/`)).toEqual([]);
    expect(await listObjectVersions(portraitCropPrefix({ ...scope, personId: ids.ada! }))).toEqual([]);
    expect(await listObjectVersions(portraitCropPrefix({ ...scope, personId: ids.bob! }))).not.toEqual([]);
    // Which exports held her went with her; Bob's holdings stay until they expire with the exports.
    expect(await holdingsOfPerson(scope, ids.ada!)).toEqual([]);
    expect(await holdingsOfPerson(scope, ids.bob!)).toEqual(
      expect.arrayContaining([{ personId: ids.bob, exportId: ready.body.exportId }]),
    );
  });
});
