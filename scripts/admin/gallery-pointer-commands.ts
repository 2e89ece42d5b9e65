import { findTenant } from '../cli-kit/lookups';
import type { CommandHandlers } from './command-types';
import { listGalleries } from '#lib/galleries/store/galleries';
import { writeMissingGalleryPointers } from '#lib/galleries/store/gallery-pointers';

/** `gallery pointers`: the pointers that galleries made before pointers existed lack (docs/admin-cli.md). */
export const galleryPointerCommands: CommandHandlers = {
  async pointers(values) {
    const tenant = await findTenant(values);
    const galleries = await listGalleries(tenant.tenantId);
    const written = await writeMissingGalleryPointers(galleries);
    return {
      data: { galleries: galleries.length, written },
      lines: [
        `Wrote ${written} missing gallery pointer(s) of tenant "${tenant.slug}" (${galleries.length} galler${galleries.length === 1 ? 'y' : 'ies'})`,
      ],
    };
  },
};
