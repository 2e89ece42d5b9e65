import { nowIso } from '#lib/platform/clock';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { PersonDraft } from '#lib/persons/rules/person-model';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { type BenchApi, createBenchGallery, importRowsFor } from './bench-api';
import { median, rounded, timed } from './statistics';

/** End-to-end import through the API against the same writes with the SDK alone. */
export interface ImportComparison {
  rows: number;
  iterations: number;
  apiMedianMilliseconds: number;
  sdkAloneMedianMilliseconds: number;
  ratio: number;
  apiSamples: number[];
  sdkAloneSamples: number[];
}

/**
 * Imports `rows` persons `iterations` times through POST persons (HTTP, middleware, validation,
 * counters) and writes the same person and code items with insertPersonsWithCodes, the
 * minimal write path that keeps codes unique, into a second gallery. The two alternate, after
 * one unmeasured warm-up each, so that both see the same state of the machine and the table.
 */
export async function compareImports(
  api: BenchApi,
  options: { rows: number; iterations: number },
): Promise<ImportComparison> {
  const apiKey = await api.freshApiKey();
  const apiDayId = api.demo.shootingDayIds[2]!;
  const sdkScope = await createSecondGallery(api.tenantId);
  const path = `/groupshoot/${api.demo.galleryToken}/persons`;

  const importThroughApi = (label: string) =>
    api.call(path, { method: 'POST', apiKey, body: { persons: importRowsFor(options.rows, apiDayId, label) } });
  const insertWithSdk = async (label: string) => {
    const { failed } = await insertPersonsWithCodes(
      sdkScope,
      importDrafts(options.rows, sdkScope.shootingDayId, label),
    );
    if (failed.length > 0) throw new Error(`${failed.length} persons not written by the SDK-alone import`);
  };

  await importThroughApi('api-warmup');
  await insertWithSdk('sdk-warmup');
  const apiSamples: number[] = [];
  const sdkAloneSamples: number[] = [];
  for (let iteration = 0; iteration < options.iterations; iteration += 1) {
    apiSamples.push((await timed(() => importThroughApi(`api-${iteration}`))).milliseconds);
    sdkAloneSamples.push((await timed(() => insertWithSdk(`sdk-${iteration}`))).milliseconds);
  }
  const apiMedian = median(apiSamples);
  const sdkMedian = median(sdkAloneSamples);
  return {
    rows: options.rows,
    iterations: options.iterations,
    apiMedianMilliseconds: rounded(apiMedian),
    sdkAloneMedianMilliseconds: rounded(sdkMedian),
    ratio: rounded(apiMedian / sdkMedian),
    apiSamples: apiSamples.map((sample) => rounded(sample)),
    sdkAloneSamples: sdkAloneSamples.map((sample) => rounded(sample)),
  };
}

async function createSecondGallery(tenantId: string): Promise<GalleryScope & { shootingDayId: string }> {
  const { token, dayId } = await createBenchGallery(tenantId, 'Bench: SDK-alone imports');
  return { tenantId, token, shootingDayId: dayId };
}

/** The drafts the import use case builds from the bench's rows (lib/persons/import-persons.ts). */
function importDrafts(rows: number, shootingDayId: string, label: string): PersonDraft[] {
  const createdAt = nowIso();
  return importRowsFor(rows, shootingDayId, label).map((row) => importedPersonDraft(row, createdAt));
}
