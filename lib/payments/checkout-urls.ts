import { invalidField } from '#lib/domain/domain-error';
import { RETURN_URL_MAX_LENGTH } from '#lib/domain/field-limits';

/** A return URL must be https, or http on this machine (local development). */
export function validReturnUrl(candidate: unknown): URL | undefined {
  if (typeof candidate !== 'string' || candidate.length > RETURN_URL_MAX_LENGTH) return undefined;
  try {
    const url = new URL(candidate);
    const local = url.protocol === 'http:' && ['localhost', '127.0.0.1'].includes(url.hostname);
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

export function returnUrlOf(candidate: unknown, fallback: string | undefined): URL {
  const url = validReturnUrl(candidate ?? fallback);
  if (!url) {
    throw invalidField('returnUrl', 'returnUrl must be an https URL of the check-in page.');
  }
  return url;
}
