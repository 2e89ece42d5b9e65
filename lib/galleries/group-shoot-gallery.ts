import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { isGalleryTokenShaped } from '#lib/platform/identifiers';

/** The configuration of the tenant's gallery with this token, of any kind; undefined when there is none. */
export async function findGalleryConfiguration(
  tenantId: string,
  token: string | undefined,
): Promise<GalleryConfiguration | undefined> {
  return token !== undefined && isGalleryTokenShaped(token) ? getGalleryConfiguration(tenantId, token) : undefined;
}

/**
 * The configuration of one of the tenant's group-shoot galleries: gallery_not_found for a
 * token the tenant does not have (another tenant's token included), not_a_groupshoot_gallery
 * for an ordinary gallery. `loaded`: the configuration the request pipeline read already for
 * this token (the public rate limit does), so it is not read twice.
 */
export async function loadGroupShootGallery(
  tenantId: string,
  token: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<GalleryConfiguration> {
  if (token === undefined || token === '') throw new DomainError('token_required');
  const configuration = loaded?.gallery.token === token ? loaded : await findGalleryConfiguration(tenantId, token);
  if (!configuration) throw new DomainError('unknown_gallery');
  if (!configuration.gallery.isGroupShoot) throw new DomainError('not_a_group_shoot');
  return configuration;
}
