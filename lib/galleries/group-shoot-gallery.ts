import { getGalleryConfiguration } from '#lib/db/galleries';
import { DomainError } from '#lib/domain/domain-error';
import type { GalleryConfiguration } from '#lib/domain/gallery-model';

/** Anything longer or with other characters cannot be a gallery token and is not looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The configuration of one of the tenant's group-shoot galleries: gallery_not_found for a
 * token the tenant does not have (another tenant's token included), not_a_groupshoot_gallery
 * for an ordinary gallery.
 */
export async function loadGroupShootGallery(tenantId: string, token: string | undefined): Promise<GalleryConfiguration> {
  if (token === undefined || token === '') throw new DomainError('token_required');
  const configuration = TOKEN_SHAPE.test(token) ? await getGalleryConfiguration(tenantId, token) : undefined;
  if (!configuration) throw new DomainError('unknown_gallery');
  if (!configuration.gallery.isGroupShoot) throw new DomainError('not_a_group_shoot');
  return configuration;
}
