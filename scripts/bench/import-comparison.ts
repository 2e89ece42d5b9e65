import { nowIso } from '#lib/platform/clock';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { importedPersonDraft } from '#lib/persons/rules/person-import';
import { type BenchApi, createBenchGallery, importRowsFor } from './bench-api';
import { median, rounded, timed } from './statistics';

/**
 * The import ratio: `rows` persons through POST persons against the same person and code items
 * written by insertPersonsWithCodes (the least that keeps codes unique) into a second gallery,
 * alternated after a warm-up each, so that both see the same state of the machine and the table.
 */
export async function compareImports(api: BenchApi, options: { rows: number; iterations: number }) {
  const apiKey = await api.freshApiKey();
  const { token, dayId } = await createBenchGallery(api.tenantId, 'Bench: SDK-alone imports');
  const importThroughApi = (label: string) => api.importPersons(apiKey, api.openDay, options.rows, label);
  const insertWithSdk = async (label: string) => {
    const createdAt = nowIso();
    const drafts = importRowsFor(options.rows, dayId, label).map((row) => importedPersonDraft(row, createdAt));
    const { failed } = await insertPersonsWithCodes({ tenantId: api.tenantId, token }, drafts);
    if (failed.length > 0) throw new Error(`${failed.length} persons not written by the SDK-alone import`);
  };
  await importThroughApi('api-warmup');
  await insertWithSdk('sdk-warmup');
  const [apiSamples, sdkSamples]: [number[], number[]] = [[], []];
  for (let iteration = 0; iteration < options.iterations; iteration += 1) {
    apiSamples.push((await timed(() => importThroughApi(`api-${iteration}`))).milliseconds);
    sdkSamples.push((await timed(() => insertWithSdk(`sdk-${iteration}`))).milliseconds);
  }
  return {
    ...options,
    apiMedianMilliseconds: rounded(median(apiSamples)),
    sdkAloneMedianMilliseconds: rounded(median(sdkSamples)),
    ratio: rounded(median(apiSamples) / median(sdkSamples)),
  };
}
