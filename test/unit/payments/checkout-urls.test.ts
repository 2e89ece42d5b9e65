import { checkoutReturnUrls, returnUrlOf, validReturnUrl } from '#lib/payments/checkout-urls';
import { refusalOf } from '../../support/domain-errors';

const PAGE = 'https://photos.example.com/checkin';

describe('validReturnUrl', () => {
  it.each([
    'https://photos.example.com/checkin',
    'https://photos.example.com/checkin?lang=de#form',
    'HTTPS://PHOTOS.EXAMPLE.COM/checkin',
    'http://localhost:3000/checkin',
    'http://127.0.0.1:8080/checkin.html',
    'http://localhost',
  ])('accepts %s', (candidate) => {
    expect(validReturnUrl(candidate)).toBeInstanceOf(URL);
  });

  it('gives the URL parsed', () => {
    expect(validReturnUrl('https://photos.example.com/checkin?lang=de')?.href).toBe('https://photos.example.com/checkin?lang=de');
  });

  it.each([
    ['http on another host', 'http://photos.example.com/checkin'],
    ['http on a host named like localhost', 'http://localhost.example.com/checkin'],
    ['http on another loopback address', 'http://127.0.0.2/checkin'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<h1>hi</h1>'],
    ['ftp:', 'ftp://photos.example.com/checkin'],
    ['a relative path', '/checkin'],
    ['no URL at all', 'not a url'],
    ['an empty string', ''],
  ])('refuses %s', (_case, candidate) => {
    expect(validReturnUrl(candidate)).toBeUndefined();
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { href: PAGE }],
    ['a URL object', new URL(PAGE)],
  ])('refuses %s, which is not text', (_case, candidate) => {
    expect(validReturnUrl(candidate)).toBeUndefined();
  });

  it('accepts 2000 characters and refuses 2001', () => {
    const url = (length: number) => `${PAGE}?q=${'x'.repeat(length - PAGE.length - 3)}`;

    expect(url(2000)).toHaveLength(2000);
    expect(validReturnUrl(url(2000))).toBeInstanceOf(URL);
    expect(validReturnUrl(url(2001))).toBeUndefined();
  });
});

describe('returnUrlOf', () => {
  it("takes the caller's URL", () => {
    expect(returnUrlOf('https://studio.example.org/welcome', PAGE).href).toBe('https://studio.example.org/welcome');
  });

  it.each([
    ['absent', undefined],
    ['null', null],
  ])('falls back to the configured page when the URL is %s', (_case, candidate) => {
    expect(returnUrlOf(candidate, PAGE).href).toBe(PAGE);
  });

  it('refuses an invalid URL as invalid_field returnUrl rather than falling back', () => {
    const error = refusalOf(() => returnUrlOf('http://evil.example.com/', PAGE));

    expect(error).toMatchObject({
      reason: 'invalid_field',
      subject: { field: 'returnUrl' },
      message: 'returnUrl must be an https URL of the check-in page.',
    });
  });

  it('refuses when neither a URL nor a fallback is there', () => {
    expect(refusalOf(() => returnUrlOf(undefined, undefined))).toMatchObject({ reason: 'invalid_field', subject: { field: 'returnUrl' } });
  });

  it('refuses an invalid fallback', () => {
    expect(refusalOf(() => returnUrlOf(undefined, 'http://photos.example.com/')).subject).toEqual({ field: 'returnUrl' });
  });
});

describe('checkoutReturnUrls', () => {
  const context = { tenantSlug: 'demo-studio', galleryToken: 'gal123', statusToken: 'gst_status', retryToken: 'grt_retry' };

  it('adds outcome, tenant, gallery and status token to the success URL', () => {
    // Act
    const { successUrl } = checkoutReturnUrls(new URL(PAGE), context);

    // Assess
    const url = new URL(successUrl);
    expect(url.origin + url.pathname).toBe(PAGE);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      checkout: 'success',
      tenant: 'demo-studio',
      token: 'gal123',
      statusToken: 'gst_status',
    });
  });

  it('adds the retry token to the cancel URL as well', () => {
    const { cancelUrl } = checkoutReturnUrls(new URL(PAGE), context);

    expect(Object.fromEntries(new URL(cancelUrl).searchParams)).toEqual({
      checkout: 'cancel',
      tenant: 'demo-studio',
      token: 'gal123',
      statusToken: 'gst_status',
      retryToken: 'grt_retry',
    });
  });

  it("keeps the page's own query parameters and fragment, and replaces those it sets", () => {
    const page = new URL('https://photos.example.com/checkin?lang=de&checkout=stale&token=old#form');

    const { successUrl } = checkoutReturnUrls(page, context);

    const url = new URL(successUrl);
    expect(url.hash).toBe('#form');
    expect(url.searchParams.get('lang')).toBe('de');
    expect(url.searchParams.getAll('checkout')).toEqual(['success']);
    expect(url.searchParams.getAll('token')).toEqual(['gal123']);
  });

  it('encodes the values it adds', () => {
    const { successUrl } = checkoutReturnUrls(new URL(PAGE), { ...context, galleryToken: 'a&b=c' });

    expect(new URL(successUrl).searchParams.get('token')).toBe('a&b=c');
    expect(successUrl).not.toContain('a&b=c');
  });

  it('leaves the URL it was given unchanged', () => {
    const page = new URL(PAGE);

    checkoutReturnUrls(page, context);

    expect(page.href).toBe(PAGE);
  });
});
