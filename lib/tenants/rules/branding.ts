import { wcagContrast } from 'culori';

/**
 * A studio's logo and accent colour on its check-in pages (docs/checkin-page.md#settings-a-studio-gives-the-page):
 * the tenant's for all its galleries, a gallery's own before them.
 */

/** A logo and accent colour, each optional; on the tenant and on the gallery. */
export interface Branding {
  /** The logo as a `data:image/webp;base64,…` URL (the page's CSP admits data: images; no other origin is needed). */
  logoUrl?: string;
  /** `#rrggbb`, lower case, with at least MIN_ACCENT_CONTRAST against white. */
  accentColor?: string;
}

/** What the page is served: each member the gallery's, else the tenant's, else null. */
export interface PageBranding {
  logoUrl: string | null;
  accentColor: string | null;
}

/** WCAG 2.2 AA for normal text: the accent colour is a button background under white text, and link text on white. */
export const MIN_ACCENT_CONTRAST = 4.5;
/**
 * A logo as stored, after re-encoding: it travels in the gallery or tenant item and in every
 * check-in info answer, so it stays small (a 480×160 WebP logo is typically 2-8 KB).
 */
export const MAX_LOGO_BYTES = 12 * 1024;
export const LOGO_MAX_SIZE = { width: 480, height: 160 } as const;

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** The colour as stored (`#rrggbb`, lower case), or why a studio may not use it. */
export function checkAccentColor(input: string): { color: string } | { problem: string } {
  const color = input.trim().toLowerCase();
  if (!HEX_COLOR.test(color)) return { problem: `"${input}" is not a colour of the form #rrggbb, such as #0a58ca` };
  const contrast = wcagContrast(color, '#ffffff');
  if (contrast < MIN_ACCENT_CONTRAST) {
    return {
      problem:
        `${color} has a contrast of ${contrast.toFixed(2)}:1 against white; the page needs at least ${MIN_ACCENT_CONTRAST}:1 ` +
        '(white text on its buttons, links on white): choose a darker colour',
    };
  }
  return { color };
}

/** Each member the gallery's where it has one, else the tenant's, else null. */
export function pageBrandingOf(gallery: Branding | undefined, tenant: Branding | undefined): PageBranding {
  return {
    logoUrl: gallery?.logoUrl ?? tenant?.logoUrl ?? null,
    accentColor: gallery?.accentColor ?? tenant?.accentColor ?? null,
  };
}
