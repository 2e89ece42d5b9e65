import { type StoredObjectVersion, deleteObjectVersions, forEachObjectVersionPage } from '#lib/platform/media-bucket';

/**
 * Deletes (or, in a dry run, counts) every object version under `prefix` that `erasable`
 * accepts, one list of up to 1,000 at a time; answers how many.
 */
export async function eraseObjectsUnder(
  prefix: string,
  dryRun: boolean,
  erasable: (version: StoredObjectVersion) => boolean = () => true,
): Promise<number> {
  let erased = 0;
  await forEachObjectVersionPage(prefix, async (versions) => {
    const doomed = versions.filter(erasable);
    erased += doomed.length;
    if (!dryRun) await deleteObjectVersions(doomed);
  });
  return erased;
}
