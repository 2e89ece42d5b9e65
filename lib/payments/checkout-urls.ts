import type { Tenant } from '#lib/tenants/store/tenants';
import { invalidField } from '#lib/platform/domain-error';
import { RETURN_URL_MAX_LENGTH } from '#lib/payments/rules/payment-limits';
import { runsOnLocalStack } from '#lib/platform/config';
import { defaultReturnUrl } from '#lib/payments/payment-settings';

/** The most return origins one tenant may allow (`tenant allow-origin`). */
export const ALLOWED_RETURN_ORIGINS_MAX = 20;

/** This machine: allowed as a return origin on the local stack only, at any port. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1'];

/**
 * The shape of a return URL: text of at most 2000 characters, an https URL, or http on
 * localhost or 127.0.0.1. Whether participants may be sent there is returnUrlOf's question.
 */
export function validReturnUrl(candidate: unknown): URL | undefined {
  if (typeof candidate !== 'string' || candidate.length > RETURN_URL_MAX_LENGTH) return undefined;
  try {
    const url = new URL(candidate);
    const local = url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname);
    return url.protocol === 'https:' || local ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Success and cancel URLs of a Checkout Session: the check-in page with the tokens it needs. */
export function checkoutReturnUrls(
  returnUrl: URL,
  context: { tenantSlug: string; galleryToken: string; statusToken: string; retryToken: string },
): { successUrl: string; cancelUrl: string } {
  const withParameters = (outcome: string, parameters: Record<string, string>) => {
    const url = new URL(returnUrl);
    url.searchParams.set('checkout', outcome);
    url.searchParams.set('tenant', context.tenantSlug);
    url.searchParams.set('token', context.galleryToken);
    for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
    return url.toString();
  };
  return {
    successUrl: withParameters('success', { statusToken: context.statusToken }),
    cancelUrl: withParameters('cancel', { statusToken: context.statusToken, retryToken: context.retryToken }),
  };
}

/** What decides, besides the tenant, where participants may be sent back. */
export interface ReturnUrlSettings {
  /** CHECKIN_PAGE_URL: the deployed check-in page, and the return URL when the body gives none. */
  checkinPageUrl: string | undefined;
  /** Whether this is the local stack (LOCAL_STACK=true). */
  local: boolean;
}

export function returnUrlSettings(): ReturnUrlSettings {
  return { checkinPageUrl: defaultReturnUrl(), local: runsOnLocalStack() };
}

/**
 * Where Stripe sends participants back, for a paid check-in and for retryCheckout alike:
 * `returnUrl` from the body, else the check-in page. Its origin must be one this studio may
 * send participants to: the check-in page's, one the tenant allowed (`tenant allow-origin`),
 * or, on the local stack only, localhost or 127.0.0.1 at any port. Anything else is
 * invalid_field for returnUrl, so that a checkout under the studio's name cannot lead elsewhere.
 */
export function returnUrlOf(
  candidate: unknown,
  tenant: Pick<Tenant, 'allowedReturnOrigins'>,
  settings: ReturnUrlSettings = returnUrlSettings(),
): URL {
  const url = validReturnUrl(candidate ?? settings.checkinPageUrl);
  if (!url) {
    throw invalidField('returnUrl', 'returnUrl must be an https URL of the check-in page.');
  }
  if (!returnOriginAllowed(url, tenant, settings)) {
    throw invalidField(
      'returnUrl',
      `The origin ${url.origin} is not allowed for this studio: returnUrl must be on the check-in page's origin or one the studio allowed.`,
    );
  }
  return url;
}

function returnOriginAllowed(
  url: URL,
  tenant: Pick<Tenant, 'allowedReturnOrigins'>,
  settings: ReturnUrlSettings,
): boolean {
  if (LOOPBACK_HOSTS.includes(url.hostname)) return settings.local;
  return url.origin === originOf(settings.checkinPageUrl) || (tenant.allowedReturnOrigins ?? []).includes(url.origin);
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * An origin as a tenant may allow it, in its normal form (`https://photos.example.com`, port
 * only when not 443): https, nothing after the host but "/", no credentials, and not this
 * machine (allowed on the local stack anyway). Undefined for anything else.
 */
export function allowableReturnOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  const bare =
    url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
  return url.protocol === 'https:' && bare && !LOOPBACK_HOSTS.includes(url.hostname) ? url.origin : undefined;
}
