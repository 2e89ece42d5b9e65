import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { nowIso } from '#lib/platform/clock';
import { hrExportReady } from '#lib/events/rules/event-catalogue';
import {
  DEFAULT_PORTRAIT_SIZE,
  type HrExport,
  emptyReport,
  newHrExportId,
} from '#lib/hr-exports/rules/hr-export-model';
import {
  getHrExport,
  holdingsOfPerson,
  markHrExportReady,
  markHrExportRunning,
  putQueuedHrExport,
  recordHrExportHoldings,
} from '#lib/hr-exports/store/hr-exports';
import { eraseHrExports, planHrExportErasure } from '#lib/hr-exports/erase-hr-exports';
import { keys } from '../../support/table-keys';
import { commandsSentDuring } from '../../support/sent-commands';
import { useTestTable } from '../../support/test-table';

useTestTable();

/** Person IDs as the build would record them (their items are not needed here). */
const personIdsOf = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, index) => `per_${prefix}${String(index).padStart(21, '0')}`);

/** A ready export of `personIds`, recorded as the build does: holdings a page of 50 at a time, then ready. */
async function readyExport(scope: { tenantId: string; token: string }, personIds: string[]): Promise<HrExport> {
  const hrExport: HrExport = {
    exportId: newHrExportId(),
    tenantId: scope.tenantId,
    galleryToken: scope.token,
    status: 'queued',
    shootingDayId: null,
    size: DEFAULT_PORTRAIT_SIZE,
    createdAt: nowIso(),
    updatedAt: nowIso(),
  };
  await putQueuedHrExport(hrExport);
  expect(await markHrExportRunning(scope, hrExport.exportId, nowIso())).toBe(true);
  const pages = Array.from({ length: Math.ceil(personIds.length / 50) }, (_, page) =>
    personIds.slice(page * 50, page * 50 + 50),
  );
  await mapWithConcurrency(pages, 4, (page) => recordHrExportHoldings(scope, hrExport, page));
  const report = { ...emptyReport(), persons: personIds.length, exported: personIds.length };
  const event = hrExportReady(
    { tenantId: scope.tenantId, galleryToken: scope.token },
    { exportId: hrExport.exportId, shootingDayId: null, exported: report.exported, skipped: report.skipped },
  );
  const ready = await markHrExportReady(
    scope,
    hrExport.exportId,
    { objectKey: `hr-exports/${hrExport.exportId}.zip`, objectExpiresAt: nowIso(), report, at: nowIso() },
    event,
  );
  expect(ready).toBe(true);
  return hrExport;
}

/** The export's item as stored, and its size as JSON (about DynamoDB's own count). */
async function storedItem(scope: { tenantId: string; token: string }, exportId: string) {
  const { Item } = await db.send(
    new GetCommand({ TableName: tableName, Key: keys.hrExport(scope.tenantId, scope.token, exportId) }),
  );
  return { item: Item!, bytes: Buffer.byteLength(JSON.stringify(Item)) };
}

describe('HR export holdings: who a ready export holds is kept per person, not on the export', () => {
  const scope = { tenantId: 'ten_holdings', token: 'holdingsgallery1' };
  const large = personIdsOf(3000, 'l');
  let small: HrExport;
  let big: HrExport;

  beforeAll(async () => {
    small = await readyExport(scope, personIdsOf(50, 's'));
    big = await readyExport(scope, large);
  }, 120_000);

  it("keeps the export's item as small for 3,000 persons as for 50: a count, no list of persons", async () => {
    const smallItem = await storedItem(scope, small.exportId);
    const bigItem = await storedItem(scope, big.exportId);
    expect(bigItem.item).not.toHaveProperty('personIds');
    expect(bigItem.item.personCount).toBe(3000);
    // The same attributes, only the numbers differ by a few digits.
    expect(bigItem.bytes - smallItem.bytes).toBeLessThan(20);
    expect(bigItem.bytes).toBeLessThan(2048);
    expect((await getHrExport(scope, big.exportId))?.report?.exported).toBe(3000);
  });

  it("finds the exports holding one person of thousands with one Query of the person's own holdings (and one of the gallery's few exports)", async () => {
    // Prepare
    const personId = large[1234]!;
    let plan: Awaited<ReturnType<typeof planHrExportErasure>> | undefined;

    // Act
    const sent = await commandsSentDuring(async () => {
      plan = await planHrExportErasure(scope, new Set([personId]));
    });

    // Assess
    expect(sent).toEqual(['QueryCommand', 'QueryCommand']);
    expect(plan!.exportIds).toEqual([big.exportId]);
    expect(plan!.holdings).toEqual([{ personId, exportId: big.exportId }]);
  });

  it("erasing the person's exports marks them erased and deletes the person's holdings, others' holdings stay to their TTL", async () => {
    // Prepare
    const personId = large[42]!;
    const plan = await planHrExportErasure(scope, new Set([personId]));

    // Act
    await eraseHrExports(scope, plan);

    // Assess
    expect(await holdingsOfPerson(scope, personId)).toEqual([]);
    expect((await getHrExport(scope, big.exportId))?.status).toBe('erased');
    expect((await storedItem(scope, big.exportId)).item).not.toHaveProperty('personCount');
    expect(await holdingsOfPerson(scope, large[43]!)).toEqual([{ personId: large[43], exportId: big.exportId }]);
    // An erased export is not erased again for another of its persons.
    expect((await planHrExportErasure(scope, new Set([large[43]!]))).exportIds).toEqual([]);
    expect((await getHrExport(scope, small.exportId))?.status).toBe('ready');
  });
});
