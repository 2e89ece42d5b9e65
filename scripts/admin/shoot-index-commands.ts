import { findGallery, findTenant } from '../cli-kit/lookups';
import type { CommandHandlers } from './command-types';
import { listGalleries } from '#lib/galleries/store/galleries';
import { backfillShootIndex } from '#lib/photos/sorting/shoot-index-backfill';

/**
 * `photo index-shoot`: the persons' shoot index entries and the photo-ID pointers that shoots
 * sorted before they existed lack (docs/admin-cli.md#the-shoot-index), one gallery's (`--gallery`) or every gallery's of the tenant.
 */
export const shootIndexCommands: CommandHandlers = {
  async 'index-shoot'(values) {
    const tenant = await findTenant(values);
    const tokens =
      values.gallery === undefined
        ? (await listGalleries(tenant.tenantId)).map((gallery) => gallery.token)
        : [(await findGallery(values)).configuration.gallery.token];
    const galleries = [];
    for (const token of tokens) {
      const tally = await backfillShootIndex({ tenantId: tenant.tenantId, token });
      galleries.push({ gallery: token, ...tally });
    }
    return {
      data: { galleries },
      lines: galleries.map(
        (gallery) =>
          `Gallery ${gallery.gallery}: wrote the index entries and pointers of ${gallery.indexed} of ${gallery.items} shoot item(s)`,
      ),
    };
  },
};
