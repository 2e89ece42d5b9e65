import { optionalText } from '../cli-kit/options';
import { formatTable } from '../cli-kit/output';
import { findGallery, findTenant } from '../cli-kit/lookups';
import type { CommandHandlers } from './command-types';
import { listGalleriesPage } from '#lib/galleries/store/galleries';
import { listTenants } from '#lib/tenants/store/tenants';
import { putMissingTenantIdPointers } from '#lib/tenants/store/tenant-directory';
import { indexPersonAddresses } from '#lib/persons/store/address-index-backfill';

/** Galleries read at a time. */
const GALLERIES_PAGE = 100;

interface GalleryBackfill {
  tenant: string;
  gallery: string;
  personsRead: number;
  personsListed: number;
}

/**
 * `backfill indexes [--tenant SLUG [--gallery TOKEN]]`: gives items stored before an index or
 * pointer existed their keys (docs/data-model.md#backfills): every tenant's ID pointer, and
 * every person with an address its entry on the address index (GSI2), gallery by gallery, a
 * page of persons at a time. Safe to run again: it writes only what is missing.
 */
export const backfillCommands: CommandHandlers = {
  async indexes(values) {
    const tenants = values.tenant ? [await findTenant(values)] : await listTenants();
    const pointers = values.tenant ? undefined : await putMissingTenantIdPointers();
    const galleries: GalleryBackfill[] = [];
    const backfill = async (tenant: { slug: string; tenantId: string }, token: string) => {
      const { read, listed } = await indexPersonAddresses({ tenantId: tenant.tenantId, token });
      galleries.push({ tenant: tenant.slug, gallery: token, personsRead: read, personsListed: listed });
    };
    if (optionalText(values, 'gallery')) {
      const { tenant, configuration } = await findGallery(values);
      await backfill(tenant, configuration.gallery.token);
    } else {
      for (const tenant of tenants) {
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await listGalleriesPage(tenant.tenantId, startKey, GALLERIES_PAGE);
          for (const gallery of page.galleries) await backfill(tenant, gallery.token);
          startKey = page.nextKey;
        } while (startKey);
      }
    }
    const listed = galleries.reduce((sum, gallery) => sum + gallery.personsListed, 0);
    return {
      data: { tenantIdPointersWritten: pointers ?? null, galleries },
      lines: [
        ...formatTable(
          ['TENANT', 'GALLERY', 'PERSONS READ', 'LISTED BY ADDRESS'],
          galleries.map((gallery) => [
            gallery.tenant,
            gallery.gallery,
            String(gallery.personsRead),
            String(gallery.personsListed),
          ]),
        ),
        ...(pointers === undefined ? [] : [`${pointers} tenant ID pointer(s) written`]),
        `${listed} person(s) listed by address in ${galleries.length} gallery(ies)`,
      ],
    };
  },
};
