/**
 * The security headers of the check-in page (docs/checkin-page.md#security-headers): one
 * definition for the page's CloudFront distribution (infra/media-delivery.ts) and for the local
 * server (scripts/local/checkin-page.ts). The page runs only its own files (config.js,
 * qr-encoder.js, checkin.js, my-photos.js, checkin.css: no inline script or style), calls only
 * the API and the photo CDN, shows images of its own origin (a tenant's copy may add a logo),
 * the selfie preview (a data: URL) and photos from the photo CDN, and is never framed.
 */

/** Where the page reaches out to; in the stack these are CDK tokens. */
export interface CheckinPageOrigins {
  /** The API's base URL, as config.js names it (…/v1): every fetch of the page goes under it. */
  apiBaseUrl: string;
  /** The photo CDN's URL: the My photos view shows the photos and fetches one to save it. */
  photoCdnUrl?: string;
}

/** The page's links carry gallery, status and retry tokens: they must not leave in a Referer. */
export const CHECKIN_PAGE_REFERRER_POLICY = 'no-referrer';
export const CHECKIN_PAGE_FRAME_OPTIONS = 'DENY';
/** Strict-Transport-Security's max-age (one year); sent over HTTPS only, so not by the local server. */
export const CHECKIN_PAGE_HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * Headers with no place of their own in a CloudFront response headers policy. The selfie field
 * is a file input (`capture="user"` opens the phone's camera app), which needs no camera
 * permission; the page uses no other powerful feature.
 */
export const CHECKIN_PAGE_CUSTOM_HEADERS = {
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

/**
 * The Content-Security-Policy: path-prefixed sources (a trailing `/`) so that connect-src admits
 * the API's base path only. Navigation to Stripe's checkout is a location change, which CSP does
 * not govern; the forms are handled by script and never submitted, hence form-action 'none'.
 */
export function checkinPageContentSecurityPolicy({ apiBaseUrl, photoCdnUrl }: CheckinPageOrigins): string {
  const photos = photoCdnUrl === undefined ? '' : ` ${photoCdnUrl}/`;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${photos}`,
    `connect-src ${apiBaseUrl}/${photos}`,
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** Every security header of the page, as the local server sends them (HSTS only over HTTPS). */
export function checkinPageSecurityHeaders(
  origins: CheckinPageOrigins,
  { https }: { https: boolean },
): Record<string, string> {
  return {
    'Content-Security-Policy': checkinPageContentSecurityPolicy(origins),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': CHECKIN_PAGE_FRAME_OPTIONS,
    'Referrer-Policy': CHECKIN_PAGE_REFERRER_POLICY,
    ...CHECKIN_PAGE_CUSTOM_HEADERS,
    ...(https ? { 'Strict-Transport-Security': `max-age=${CHECKIN_PAGE_HSTS_MAX_AGE_SECONDS}` } : {}),
  };
}
