/**
 * A studio's logo and accent colour on its check-in pages (docs/checkin-page.md#settings-a-studio-gives-the-page):
 * the tenant's for all its galleries, a gallery's own before them.
 */

/** A logo and accent colour, each optional; on the tenant and on the gallery. */
export interface Branding {
  /** The logo as a `data:image/webp;base64,…` URL (the page's CSP admits data: images; no other origin is needed). */
  logoUrl?: string;
  /** `#rrggbb`, lower case, with at least MIN_ACCENT_CONTRAST against white (accent-color.ts). */
  accentColor?: string;
}

/** What the page is served: each member the gallery's, else the tenant's, else null. */
export interface PageBranding {
  logoUrl: string | null;
  accentColor: string | null;
}

/**
 * A logo as stored, after re-encoding: it travels in the gallery or tenant item and in every
 * check-in info answer, so it stays small (a 480×160 WebP logo is typically 2-8 KB).
 */
export const MAX_LOGO_BYTES = 12 * 1024;
export const LOGO_MAX_SIZE = { width: 480, height: 160 } as const;

/** Each member the gallery's where it has one, else the tenant's, else null. */
export function pageBrandingOf(gallery: Branding | undefined, tenant: Branding | undefined): PageBranding {
  return {
    logoUrl: gallery?.logoUrl ?? tenant?.logoUrl ?? null,
    accentColor: gallery?.accentColor ?? tenant?.accentColor ?? null,
  };
}
