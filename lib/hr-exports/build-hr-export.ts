import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { now, nowIso } from '#lib/platform/clock';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { deleteObjectForGood } from '#lib/platform/media-bucket';
import { hrExportObjectKey } from '#lib/platform/media-keys';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import {
  DEFAULT_HR_EXPORT_SETTINGS,
  type GalleryScope,
  type HrExportSettings,
} from '#lib/galleries/rules/gallery-model';
import { listPersons } from '#lib/persons/store/persons';
import type { Person } from '#lib/persons/rules/person-model';
import { listPhotos } from '#lib/photos/common/store/photos';
import type { Photo } from '#lib/photos/common/rules/photo-model';
import { hrExportReady } from '#lib/events/rules/event-catalogue';
import {
  HR_EXPORT_MAX_RECEIVES,
  HR_EXPORT_OBJECT_DAYS,
  type HrExport,
  type HrExportReport,
  emptyReport,
} from '#lib/hr-exports/rules/hr-export-model';
import { choosePortrait, hasHrExportConsent } from '#lib/hr-exports/rules/export-eligibility';
import { PortraitFileNamer, comparedNameOf } from '#lib/hr-exports/rules/portrait-file-names';
import { employeeIdSourceOf } from '#lib/hr-exports/rules/employee-id-sources';
import { MANIFEST_COLUMNS, MANIFEST_FILE_NAME, manifestRow } from '#lib/hr-exports/rules/manifest-rows';
import {
  getHrExport,
  markHrExportFailed,
  markHrExportReady,
  markHrExportRunning,
  recordHrExportHoldings,
} from '#lib/hr-exports/store/hr-exports';
import { tableFileNameLedger } from '#lib/hr-exports/store/file-name-claims';
import { startExportArchive } from '#lib/hr-exports/adapters/export-archive';
import { keptCropsOf, portraitOfPhoto } from '#lib/hr-exports/adapters/portrait-cache';
import { type HrExportMessage, parseHrExportMessage } from '#lib/hr-exports/adapters/hr-export-queue';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';

/** Persons read from the table at a time. */
const PERSONS_PAGE = 50;
/**
 * Portraits prepared (read, cropped or taken from the cache) at once, ahead of the archive: enough
 * that the bucket's answers overlap the crops (8 was faster than 4 in the bench, docs/benchmarks.md#10-hr-export),
 * few enough that memory stays flat (about one decoded photo each at a time).
 */
const PORTRAITS_AHEAD = 8;

/** What a build did with its message. */
export type BuildOutcome = 'ready' | 'failed' | 'not_claimed' | 'erased_meanwhile';

/**
 * Builds a queued export: pages through the gallery's persons, puts one square portrait per
 * consenting person with a photo into the ZIP as it goes (lib/hr-exports/adapters/export-archive.ts), writes the manifest to
 * a temporary file and adds it last, then records the export ready and its hr_export.ready event in one
 * transaction. A failure on the last attempt marks it failed; before that it is thrown, and the
 * queue gives the message again.
 */
export async function buildHrExport(message: HrExportMessage, attempt: { isLast: boolean }): Promise<BuildOutcome> {
  const scope: GalleryScope = { tenantId: message.tenantId, token: message.token };
  if (!(await markHrExportRunning(scope, message.exportId, nowIso()))) return 'not_claimed';
  const hrExport = await getHrExport(scope, message.exportId, { consistent: true });
  if (!hrExport) return 'not_claimed';
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) {
    await markHrExportFailed(scope, hrExport.exportId, 'gallery_gone', nowIso());
    return 'failed';
  }
  const settings = configuration.gallery.hrExport ?? DEFAULT_HR_EXPORT_SETTINGS;
  const objectKey = hrExportObjectKey(scope.tenantId, scope.token, hrExport.exportId);
  let report: HrExportReport;
  try {
    report = await writeArchive(scope, hrExport, settings, objectKey);
  } catch (error) {
    if (!attempt.isLast) throw error;
    await markHrExportFailed(scope, hrExport.exportId, 'build_failed', nowIso());
    return 'failed';
  }
  const event = hrExportReady(
    { tenantId: scope.tenantId, galleryToken: scope.token },
    {
      exportId: hrExport.exportId,
      shootingDayId: hrExport.shootingDayId,
      exported: report.exported,
      skipped: report.skipped,
    },
  );
  const objectExpiresAt = new Date(now() + HR_EXPORT_OBJECT_DAYS * 86_400_000).toISOString();
  if (await markHrExportReady(scope, hrExport.exportId, { objectKey, objectExpiresAt, report, at: nowIso() }, event))
    return 'ready';
  // Erased while it was built: the ZIP may hold an erased person.
  await deleteObjectForGood(objectKey);
  return 'erased_meanwhile';
}

async function writeArchive(
  scope: GalleryScope,
  hrExport: HrExport,
  settings: HrExportSettings,
  objectKey: string,
): Promise<HrExportReport> {
  const namer = await portraitNamerOf(scope, settings);
  const archive = startExportArchive(objectKey, `hr-export-${hrExport.exportId}.zip`);
  const folder = await mkdtemp(join(tmpdir(), 'hr-export-'));
  const manifestPath = join(folder, MANIFEST_FILE_NAME);
  // A byte order mark, so that spreadsheet programs read the names as UTF-8.
  const manifest = stringify({ header: true, columns: [...MANIFEST_COLUMNS], bom: true });
  const manifestWritten = finished(manifest.pipe(createWriteStream(manifestPath)));
  const report = emptyReport();
  const createdAt = new Date(hrExport.createdAt);
  try {
    const pages = personPages(scope);
    // The next page's persons and photos are read while this page's portraits are cut.
    const choicesOfNextPage = async () => {
      const page = await pages.next();
      if (page.done) return undefined;
      const considered = page.value.filter(
        (person) => hrExport.shootingDayId === null || person.shootingDayId === hrExport.shootingDayId,
      );
      const [chosen, kept] = await Promise.all([
        mapWithConcurrency(considered, PORTRAITS_AHEAD, (person) => photoFor(scope, person)),
        keptCropsOf(
          scope,
          considered.map((person) => person.personId),
        ),
      ]);
      return { considered, chosen, kept };
    };
    let nextPage = choicesOfNextPage();
    for (let page = await nextPage; page; page = await nextPage) {
      nextPage = choicesOfNextPage();
      // Settled where it is awaited; this keeps a failure meanwhile from going unhandled.
      nextPage.catch(() => undefined);
      const { considered, chosen, kept } = page;
      report.persons += considered.length;
      const exported = considered.flatMap((person, index) => {
        const choice = chosen[index]!;
        if (choice.kind === 'skip') report.skipped[choice.reason] += 1;
        return choice.kind === 'portrait' ? [{ person, photo: choice.photo }] : [];
      });
      // Up to PORTRAITS_AHEAD portraits are prepared while the one before them goes into the archive, in order.
      const preparing = exported.map(() => undefined as Promise<Portrait> | undefined);
      const prepare = (index: number) => {
        const entry = exported[index];
        if (entry && !preparing[index])
          preparing[index] = portraitOfPhoto(scope, entry.person.personId, entry.photo, hrExport.size, kept);
        // Settled where it is awaited; this keeps a failure ahead of the archive from going unhandled meanwhile.
        preparing[index]?.catch(() => undefined);
      };
      for (let index = 0; index < PORTRAITS_AHEAD; index += 1) prepare(index);
      for (const [index, { person, photo }] of exported.entries()) {
        const portrait = await preparing[index]!;
        preparing[index] = undefined;
        prepare(index + PORTRAITS_AHEAD);
        report[portrait.reused ? 'cropsReused' : 'cropsComputed'] += 1;
        const employeeIdSource = employeeIdSourceOf(person);
        const named = await namer.nameFor({
          personId: person.personId,
          employeeId: person.employeeId,
          employeeIdSource,
        });
        if (named.renamedFrom)
          report.renamed.push({ personId: person.personId, wanted: named.renamedFrom, fileName: named.fileName });
        await archive.add(named.fileName, portrait.bytes, createdAt);
        manifest.write(
          manifestRow({
            employeeId: person.employeeId,
            employeeIdSource,
            name: person.name,
            email: person.email,
            fileName: named.fileName,
            photoId: photo.photoId,
            takenAt: photo.capturedAt ?? photo.createdAt,
          }),
        );
        report.exported += 1;
      }
      // Which exports hold whom, a page at a time: erasure finds them by person.
      await recordHrExportHoldings(
        scope,
        hrExport,
        exported.map(({ person }) => person.personId),
      );
    }
    manifest.end();
    await manifestWritten;
    await archive.add(MANIFEST_FILE_NAME, createReadStream(manifestPath), createdAt);
    await archive.finish();
  } catch (error) {
    manifest.destroy();
    await archive.abort();
    throw error;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return report;
}

type PhotoChoice = ReturnType<typeof choosePortrait>;
type Portrait = Awaited<ReturnType<typeof portraitOfPhoto>>;

/** A person's portrait photo; a person without consent is not even looked up. */
async function photoFor(scope: GalleryScope, person: Person): Promise<PhotoChoice> {
  if (!hasHrExportConsent(person)) return { kind: 'skip', reason: 'noConsent' };
  const photos: Photo[] = await listPhotos(scope, person.personId);
  return choosePortrait(photos, person.pickedPhotoId);
}

/**
 * The namer of the gallery's files, keeping the names it gives in the table (memory stays flat
 * however large the export). Where declared IDs name files, it first records the name every ID HR
 * imported in the gallery wants (one more pass over its persons, every day's, a page at a time),
 * so that a declared ID never takes one's name, even where the declared person comes first. A
 * person imported while the build runs is not among them: should a declared ID have taken their
 * name, they get a suffix.
 */
async function portraitNamerOf(scope: GalleryScope, settings: HrExportSettings): Promise<PortraitFileNamer> {
  const ledger = tableFileNameLedger(scope);
  if (settings.declaredIdsNameFiles)
    for await (const page of personPages(scope))
      await ledger.reserveForHr(
        page.flatMap((person) =>
          employeeIdSourceOf(person) === 'hr' && person.employeeId?.trim() ? [comparedNameOf(person.employeeId)] : [],
        ),
      );
  return new PortraitFileNamer({ declaredIdsNameFiles: settings.declaredIdsNameFiles, ledger });
}

/** The gallery's persons, a page at a time, in creation order. */
async function* personPages(scope: GalleryScope): AsyncGenerator<Person[]> {
  let afterPersonId: string | undefined;
  do {
    const page = await listPersons(scope, { limit: PERSONS_PAGE, afterPersonId });
    yield page.persons;
    afterPersonId = page.lastPersonId;
  } while (afterPersonId !== undefined);
}

/** A queued message as the worker receives it, with SQS's count of its receives. */
export interface QueuedExportRecord {
  messageId: string;
  body: string;
  receiveCount: number;
}

/**
 * The build queue's worker's step: builds one queued export, and throws to have its message
 * handed back (a failure before the last attempt). The last attempt marks a failing export
 * failed and lets its message go; a malformed message goes to the dead-letter queue, which alarms.
 */
export async function buildQueuedHrExport(record: QueuedExportRecord): Promise<void> {
  const message = parseHrExportMessage(record.body);
  if (!message) {
    logger.error('malformed hr export message', { counts: { bytes: record.body.length } });
    throw new MalformedMessageError();
  }
  const fields = { tenantId: message.tenantId, gallery: galleryRef(message.token), operation: message.exportId };
  try {
    const outcome = await buildHrExport(message, { isLast: record.receiveCount >= HR_EXPORT_MAX_RECEIVES });
    logger.info('hr export built', { ...fields, outcome });
  } catch (error) {
    logger.error('hr export build failed', { ...fields, error: loggableError(error) });
    throw error;
  }
}

/** A message that is no HR export message; it fails every attempt. */
class MalformedMessageError extends Error {
  constructor() {
    super('Malformed HR export message');
    this.name = 'MalformedMessageError';
  }
}
