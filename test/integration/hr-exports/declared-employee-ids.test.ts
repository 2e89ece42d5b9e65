import { parse } from 'csv-parse/sync';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type HrExportPipeline, startHrExportPipeline } from '../../../scripts/local/local-hr-export-queue';
import { useLocalApi } from '../../support/local-api';
import { admin } from '../../support/admin';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { makeJpegWithGps } from '../../support/media';
import { deliverPersonPhoto, hrConsentGallery, importPersons, setPersonFacts, unzip } from '../../support/hr-exports';

const api = useLocalApi();

const SIZE = 64;

/**
 * Issue 41: the person HR named stays that person. In an open gallery anyone may check in and
 * type any employee ID; HR imported Dan as E-40, and Pia, who checked in herself, typed E-40 too.
 */
describe('HR export of an open gallery: employee IDs typed at check-in', () => {
  let studio: TestTenant;
  let scope: { tenantId: string; token: string };
  let pipeline: HrExportPipeline;
  const ids: Record<string, string> = {};
  const photos: Record<string, string> = {};

  /** A participant's own check-in (a new person, source checkin) with the HR consent; answers the person ID. */
  async function checkIn(name: string, employeeId: string): Promise<string> {
    const answer = await api.call('/group-shoot', {
      method: 'POST',
      headers: studio.publicHeaders,
      body: {
        action: 'submitCheckin',
        token: scope.token,
        name,
        email: `${name.toLowerCase()}@example.com`,
        employeeId,
        consentGiven: true,
        hrExportConsent: true,
      },
    });
    expect([answer.status, answer.body.ok]).toEqual([200, true]);
    return answer.body.personId as string;
  }

  /** Builds an export with the export queue's worker and answers its report and the ZIP's files and manifest rows. */
  async function exportGallery() {
    const created = await api.call(`/group-shoot/checkin/${scope.token}/hr-exports`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { size: SIZE },
    });
    expect(created.status).toBe(202);
    await pipeline.settled();
    const ready = await api.call(`/group-shoot/checkin/${scope.token}/hr-exports/${created.body.exportId}`, {
      headers: studio.serverHeaders,
    });
    expect(ready.body.status).toBe('ready');
    const files = await unzip(Buffer.from(await (await fetch(ready.body.downloadUrl)).arrayBuffer()));
    const rows = parse<Record<string, string>>(files.get('manifest.csv')!, { columns: true, bom: true });
    return {
      report: ready.body.report,
      fileNames: [...files.keys()].sort(),
      rows: new Map(rows.map((row) => [row.file, row])),
    };
  }

  const declaredIds = (...options: string[]) =>
    admin('gallery', 'hr-export', '--tenant', studio.slug, '--gallery', scope.token, ...options);

  beforeAll(async () => {
    pipeline = await startHrExportPipeline();
    studio = await createTestTenant();
    scope = { tenantId: studio.tenant.tenantId, token: (await hrConsentGallery(studio)).token };
    // Pia checks in before HR's import: in creation order, her E-40 comes before Dan's.
    ids.pia = await checkIn('Pia', 'E-40');
    [ids.dan, ids.ivy] = (await importPersons(api, studio, scope.token, [
      { name: 'Dan', employeeId: 'E-40' },
      { name: 'Ivy' },
    ])) as [string, string];
    ids.rosa = await checkIn('Rosa', 'e-40');
    ids.quinn = await checkIn('Quinn', 'E-77');
    // Imported persons agree when they check in; here straight in the table (their check-in is not this test's).
    await setPersonFacts(scope, ids.dan, { hrExportConsent: true });
    await setPersonFacts(scope, ids.ivy, { hrExportConsent: true });
    for (const [index, key] of ['pia', 'dan', 'ivy', 'rosa', 'quinn'].entries())
      photos[key] = await deliverPersonPhoto(scope, ids[key]!, 'portrait.jpg', makeJpegWithGps(300 + index * 20, 200));
  });

  afterAll(() => pipeline.stop());

  describe('by default (declared IDs name no file)', () => {
    let exported: Awaited<ReturnType<typeof exportGallery>>;
    beforeAll(async () => {
      exported = await exportGallery();
    });

    it("names E-40.jpg Dan's file, the one HR named E-40, and the files of those who typed an ID by their person ID", () => {
      expect(exported.fileNames).toEqual(
        ['E-40.jpg', `${ids.pia}.jpg`, `${ids.ivy}.jpg`, `${ids.rosa}.jpg`, `${ids.quinn}.jpg`, 'manifest.csv'].sort(),
      );
      expect(exported.rows.get('E-40.jpg')).toEqual(expect.objectContaining({ name: 'Dan', photoId: photos.dan }));
      expect(exported.rows.get(`${ids.pia}.jpg`)).toEqual(
        expect.objectContaining({ name: 'Pia', photoId: photos.pia }),
      );
      expect(exported.report).toEqual(expect.objectContaining({ exported: 5, renamed: [] }));
    });

    it('says in the manifest which employee IDs came from HR and which were declared', () => {
      const sourceOf = (file: string) => {
        const row = exported.rows.get(file)!;
        return [row.name, row.employeeId, row.employeeIdSource];
      };
      expect(sourceOf('E-40.jpg')).toEqual(['Dan', 'E-40', 'hr']);
      expect(sourceOf(`${ids.pia}.jpg`)).toEqual(['Pia', 'E-40', 'declared']);
      expect(sourceOf(`${ids.rosa}.jpg`)).toEqual(['Rosa', 'e-40', 'declared']);
      expect(sourceOf(`${ids.quinn}.jpg`)).toEqual(['Quinn', 'E-77', 'declared']);
      expect(sourceOf(`${ids.ivy}.jpg`)).toEqual(['Ivy', '', '']);
    });
  });

  describe('with declared IDs turned on (gallery hr-export --declared-ids on)', () => {
    afterAll(async () => {
      await declaredIds('--declared-ids', 'off');
      await setPersonFacts(scope, ids.dan!, { hrExportConsent: true });
    });

    it('names a declared ID no HR person has, and gives E-40.jpg to Dan although Pia typed it first', async () => {
      // Prepare
      const turnedOn = await declaredIds('--declared-ids', 'on', '--json');
      // Act
      const exported = await exportGallery();
      // Assess
      expect([turnedOn.code, turnedOn.json()]).toEqual([0, { declaredIdsNameFiles: true }]);
      expect(exported.fileNames).toEqual(
        ['E-40.jpg', `${ids.pia}.jpg`, `${ids.ivy}.jpg`, `${ids.rosa}.jpg`, 'E-77.jpg', 'manifest.csv'].sort(),
      );
      expect(exported.rows.get('E-40.jpg')).toEqual(expect.objectContaining({ name: 'Dan', employeeIdSource: 'hr' }));
      expect(exported.rows.get('E-77.jpg')).toEqual(
        expect.objectContaining({ name: 'Quinn', photoId: photos.quinn, employeeIdSource: 'declared' }),
      );
      expect(exported.report.renamed).toEqual([
        { personId: ids.pia, wanted: 'E-40.jpg', fileName: `${ids.pia}.jpg` },
        { personId: ids.rosa, wanted: 'e-40.jpg', fileName: `${ids.rosa}.jpg` },
      ]);
    });

    it('gives E-40.jpg to no declared ID even when Dan is not in the export (he withdrew his HR consent)', async () => {
      // Prepare
      await declaredIds('--declared-ids', 'on');
      await setPersonFacts(scope, ids.dan!, { hrExportConsent: false });
      // Act
      const exported = await exportGallery();
      // Assess
      expect(exported.fileNames).not.toContain('E-40.jpg');
      expect(exported.fileNames).toContain(`${ids.pia}.jpg`);
      expect(exported.report).toEqual(expect.objectContaining({ exported: 4, skipped: { noConsent: 1, noPhoto: 0 } }));
    });
  });

  it('gallery hr-export shows the setting, sets it on and off, and refuses another word with exit code 2', async () => {
    // Act
    const shown = await declaredIds();
    const on = await declaredIds('--declared-ids', 'on');
    const storedOn = (await getGalleryConfiguration(scope.tenantId, scope.token))?.gallery.hrExport;
    const off = await declaredIds('--declared-ids', 'off', '--json');
    const refused = await declaredIds('--declared-ids', 'yes');
    // Assess
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/declared employee ID\s+names no file \(off\)/);
    expect(on.out).toMatch(/declared employee ID\s+names the file \(on\)/);
    expect(storedOn).toEqual({ declaredIdsNameFiles: true });
    expect([off.code, off.json()]).toEqual([0, { declaredIdsNameFiles: false }]);
    expect((await getGalleryConfiguration(scope.tenantId, scope.token))?.gallery.hrExport).toEqual({
      declaredIdsNameFiles: false,
    });
    expect(refused.code).toBe(2);
  });
});
