import {
  deleteObjectVersions,
  forEachObjectVersionPage,
  listObjectVersions,
  putMediaObject,
} from '#lib/platform/media-bucket';
import { listObjectPage } from '#lib/photos/uploads/adapters/inbox-storage';
import { mapWithConcurrency } from '#lib/platform/concurrency';

// The local S3 server (scripts/local/s3-local.ts) must answer as S3 does where the service relies on it.
describe('the local S3 server', () => {
  const prefix = `local-s3-test/${Date.now()}/`;
  const keys = Array.from({ length: 2500 }, (_, index) => `${prefix}folder-${index % 5}/sub-${index % 3}/${index}.jpg`);

  beforeAll(async () => {
    await mapWithConcurrency(keys, 16, (key) => putMediaObject(key, Buffer.from(key), 'image/jpeg'));
  }, 120_000);

  it('lists more keys than one page holds, page after page, with continuation tokens', async () => {
    const pages: number[] = [];
    const listed: string[] = [];
    await forEachObjectVersionPage(prefix, (versions) => {
      pages.push(versions.length);
      listed.push(...versions.map((version) => version.key));
    });
    expect(pages).toEqual([1000, 1000, 500]);
    expect(listed).toEqual([...keys].sort());
  });

  it('cuts a page at the number of keys asked for and says more follow', async () => {
    const first = await listObjectPage(prefix, undefined, 10);
    expect(first.objects).toHaveLength(10);
    expect(first.truncated).toBe(true);
    const last = await listObjectPage(prefix, [...keys].sort().at(-3), 10);
    expect(last.objects.map((object) => object.key)).toEqual([...keys].sort().slice(-2));
    expect(last.truncated).toBe(false);
  });

  it('deletes a thousand keys spread over a few folders in one DeleteObjects call, as S3 does', async () => {
    const stored = (await listObjectVersions(prefix)).slice(0, 1000);

    await deleteObjectVersions(stored);

    expect(await listObjectVersions(prefix)).toHaveLength(keys.length - 1000);
  });
});
