import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { createGallery, updateGallerySettings } from '#lib/galleries/store/galleries';
import { listGalleryPointers } from '#lib/galleries/store/gallery-pointers';
import { randomToken } from '#lib/platform/secret-values';
import { GALLERY_TOKEN_LENGTH } from '#lib/platform/identifiers';
import { admin } from '../../support/admin';
import { createTestTenant } from '../../support/factories';
import { useTestTable } from '../../support/test-table';

useTestTable();

const deletePointer = (tenantId: string, token: string) =>
  db.send(new DeleteCommand({ TableName: tableName, Key: keys.galleryPointer(tenantId, token) }));

describe("a gallery's pointer (its tenant and own public limits, by token)", () => {
  it('is written with the gallery, with the limits the gallery is made with', async () => {
    // Prepare
    const studio = await createTestTenant();
    // Act
    const limited = await createGallery(studio.tenant.tenantId, {
      ...studio.gallery,
      galleryName: 'Limited',
      publicLimits: { reads: { limit: 9, windowMs: 60_000 } },
    });
    // Assess
    expect(await listGalleryPointers(studio.token)).toEqual([{ tenantId: studio.tenant.tenantId }]);
    expect(await listGalleryPointers(limited.token)).toEqual([
      { tenantId: studio.tenant.tenantId, publicLimits: { reads: { limit: 9, windowMs: 60_000 } } },
    ]);
  });

  it('follows the limits `gallery limits` sets, and drops them with --defaults', async () => {
    // Prepare
    const studio = await createTestTenant();
    const limits = (...options: string[]) =>
      admin('gallery', 'limits', '--tenant', studio.slug, '--gallery', studio.token, ...options);
    // Act
    await limits('--reads', '50/30s');
    const set = await listGalleryPointers(studio.token);
    await limits('--checkins', '600/1h');
    const added = await listGalleryPointers(studio.token);
    await limits('--defaults');
    const dropped = await listGalleryPointers(studio.token);
    // Assess
    expect(set).toEqual([
      { tenantId: studio.tenant.tenantId, publicLimits: { reads: { limit: 50, windowMs: 30_000 } } },
    ]);
    expect(added).toEqual([
      {
        tenantId: studio.tenant.tenantId,
        publicLimits: { reads: { limit: 50, windowMs: 30_000 }, checkins: { limit: 600, windowMs: 3_600_000 } },
      },
    ]);
    expect(dropped).toEqual([{ tenantId: studio.tenant.tenantId }]);
  });

  it('is written by a change of limits where a gallery older than pointers has none', async () => {
    const studio = await createTestTenant();
    await deletePointer(studio.tenant.tenantId, studio.token);
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { reads: { limit: 5, windowMs: 60_000 } },
    });
    expect(await listGalleryPointers(studio.token)).toEqual([
      { tenantId: studio.tenant.tenantId, publicLimits: { reads: { limit: 5, windowMs: 60_000 } } },
    ]);
  });

  it('is not written for limits of a gallery the tenant does not have', async () => {
    const studio = await createTestTenant();
    const unknownToken = randomToken(GALLERY_TOKEN_LENGTH);
    const changed = await updateGallerySettings(studio.tenant.tenantId, unknownToken, {
      publicLimits: { reads: { limit: 5, windowMs: 60_000 } },
    });
    expect([changed, await listGalleryPointers(unknownToken)]).toEqual([false, []]);
  });

  it("is left alone by changes of other settings, and by another tenant's galleries", async () => {
    const studio = await createTestTenant();
    const other = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { reads: { limit: 5, windowMs: 60_000 } },
    });
    await updateGallerySettings(studio.tenant.tenantId, studio.token, { galleryName: 'Renamed' });
    await updateGallerySettings(other.tenant.tenantId, other.token, {
      publicLimits: { reads: { limit: 7, windowMs: 60_000 } },
    });
    expect(await listGalleryPointers(studio.token)).toEqual([
      { tenantId: studio.tenant.tenantId, publicLimits: { reads: { limit: 5, windowMs: 60_000 } } },
    ]);
  });
});

describe('gallery pointers (admin CLI)', () => {
  it("writes the missing pointers of the tenant's galleries, with their limits, and nothing when run again", async () => {
    // Prepare: two galleries made "before pointers", one with limits of its own; another tenant's gallery without one.
    const studio = await createTestTenant();
    const other = await createTestTenant();
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      publicLimits: { checkins: { limit: 3, windowMs: 60_000 } },
    });
    await deletePointer(studio.tenant.tenantId, studio.token);
    await deletePointer(studio.tenant.tenantId, studio.ordinaryToken);
    await deletePointer(other.tenant.tenantId, other.token);
    // Act
    const first = await admin('gallery', 'pointers', '--tenant', studio.slug, '--json');
    const again = await admin('gallery', 'pointers', '--tenant', studio.slug);
    // Assess
    expect([first.code, first.json()]).toEqual([0, { galleries: 2, written: 2 }]);
    expect([again.code, again.out]).toEqual([0, expect.stringMatching(/^Wrote 0 missing gallery pointer\(s\)/)]);
    expect(await listGalleryPointers(studio.token)).toEqual([
      { tenantId: studio.tenant.tenantId, publicLimits: { checkins: { limit: 3, windowMs: 60_000 } } },
    ]);
    expect(await listGalleryPointers(studio.ordinaryToken)).toEqual([{ tenantId: studio.tenant.tenantId }]);
    expect(await listGalleryPointers(other.token)).toEqual([]);
  });

  it('answers an unknown tenant as not found', async () => {
    const run = await admin('gallery', 'pointers', '--tenant', 'no-such-studio');
    expect(run.code).not.toBe(0);
    expect(run.err.join('\n')).toMatch(/No tenant with slug "no-such-studio"/);
  });
});
