/** The canonical (lowercase) shape of a slug; the OpenAPI document states it for X-Tenant-Slug. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Tenant slugs are DNS-label shaped: lowercase letters, digits and inner hyphens, at most 63
 * characters. A presented slug is compared case-insensitively; undefined when it cannot be one.
 */
export function normalizeTenantSlug(presented: string): string | undefined {
  const slug = presented.trim().toLowerCase();
  return SLUG_PATTERN.test(slug) ? slug : undefined;
}
