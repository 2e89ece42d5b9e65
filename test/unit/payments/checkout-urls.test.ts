import {
  type ReturnUrlSettings,
  allowableReturnOrigin,
  checkoutReturnUrls,
  returnUrlOf,
  returnUrlSettings,
  validReturnUrl,
} from '#lib/payments/checkout-urls';
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
    expect(validReturnUrl('https://photos.example.com/checkin?lang=de')?.href).toBe(
      'https://photos.example.com/checkin?lang=de',
    );
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
  const DEPLOYED: ReturnUrlSettings = { checkinPageUrl: PAGE, local: false };
  const LOCAL: ReturnUrlSettings = { checkinPageUrl: PAGE, local: true };
  const STUDIO = { allowedReturnOrigins: ['https://studio.example.org'] };
  const NO_ORIGINS = {};
  const notAllowed = /^The origin .+ is not allowed for this studio/;

  it("takes the caller's URL on an origin the studio allowed, and refuses it for a studio that did not", () => {
    expect(returnUrlOf('https://studio.example.org/welcome', STUDIO, DEPLOYED).href).toBe(
      'https://studio.example.org/welcome',
    );
    expect(refusalOf(() => returnUrlOf('https://studio.example.org/welcome', NO_ORIGINS, DEPLOYED)).message).toMatch(
      notAllowed,
    );
  });

  it("takes any URL on the check-in page's origin for every studio, but no look-alike of it", () => {
    expect(returnUrlOf('https://photos.example.com/other/page?x=1', NO_ORIGINS, DEPLOYED).href).toBe(
      'https://photos.example.com/other/page?x=1',
    );
    expect(
      refusalOf(() => returnUrlOf('https://photos.example.com.evil.example/checkin', NO_ORIGINS, DEPLOYED)).message,
    ).toMatch(notAllowed);
  });

  it('compares origins in their normal form: case and the default port do not matter, another port does', () => {
    expect(returnUrlOf('HTTPS://Studio.Example.ORG:443/welcome', STUDIO, DEPLOYED).href).toBe(
      'https://studio.example.org/welcome',
    );
    expect(refusalOf(() => returnUrlOf('https://studio.example.org:444/welcome', STUDIO, DEPLOYED)).message).toMatch(
      notAllowed,
    );
  });

  it.each([
    ['absent', undefined],
    ['null', null],
  ])('falls back to the configured page when the URL is %s', (_case, candidate) => {
    expect(returnUrlOf(candidate, NO_ORIGINS, DEPLOYED).href).toBe(PAGE);
  });

  it('refuses an invalid URL as invalid_field returnUrl rather than falling back', () => {
    const error = refusalOf(() => returnUrlOf('http://evil.example.com/', STUDIO, DEPLOYED));

    expect(error).toMatchObject({
      reason: 'invalid_field',
      subject: { field: 'returnUrl' },
      message: 'returnUrl must be an https URL of the check-in page.',
    });
  });

  it.each([
    ['another site', 'https://evil.example.com/checkin'],
    ['a host that starts like an allowed one', 'https://studio.example.org.evil.example/'],
    ['a subdomain of an allowed origin', 'https://pay.studio.example.org/'],
    ['another port of an allowed origin', 'https://studio.example.org:8443/welcome'],
    ['credentials in front of another host', 'https://studio.example.org@evil.example.com/'],
    ['https on localhost', 'https://localhost/checkin'],
  ])('refuses %s when deployed: the origin is not allowed for this studio', (_case, candidate) => {
    const error = refusalOf(() => returnUrlOf(candidate, STUDIO, DEPLOYED));

    expect(error).toMatchObject({ reason: 'invalid_field', subject: { field: 'returnUrl' } });
    expect(error.message).toMatch(notAllowed);
    expect(error.message).toContain(new URL(candidate).origin);
  });

  it.each(['http://localhost:3000/checkin/', 'http://127.0.0.1:49152/checkin/', 'http://localhost/'])(
    'takes %s on the local stack only',
    (candidate) => {
      expect(returnUrlOf(candidate, NO_ORIGINS, LOCAL).href).toBe(candidate);
      expect(refusalOf(() => returnUrlOf(candidate, NO_ORIGINS, DEPLOYED)).message).toMatch(notAllowed);
    },
  );

  it('refuses other origins on the local stack too', () => {
    expect(refusalOf(() => returnUrlOf('https://evil.example.com/', NO_ORIGINS, LOCAL)).message).toMatch(notAllowed);
  });

  it("takes the studio's origins without a check-in page configured, and refuses the rest", () => {
    const settings = { checkinPageUrl: undefined, local: false };

    expect(returnUrlOf('https://studio.example.org/', STUDIO, settings).href).toBe('https://studio.example.org/');
    expect(refusalOf(() => returnUrlOf('https://photos.example.com/checkin', STUDIO, settings)).message).toMatch(
      notAllowed,
    );
  });

  it('refuses when neither a URL nor a fallback is there', () => {
    const settings = { checkinPageUrl: undefined, local: false };

    expect(refusalOf(() => returnUrlOf(undefined, STUDIO, settings))).toMatchObject({
      reason: 'invalid_field',
      subject: { field: 'returnUrl' },
    });
  });

  it('refuses an invalid fallback', () => {
    const settings = { checkinPageUrl: 'http://photos.example.com/', local: false };

    expect(refusalOf(() => returnUrlOf(undefined, STUDIO, settings)).subject).toEqual({ field: 'returnUrl' });
  });
});

describe('returnUrlSettings', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it.each([
    ['LOCAL_STACK=true', true, { LOCAL_STACK: 'true' }],
    ['no LOCAL_STACK', false, {}],
    ['LOCAL_STACK=1', false, { LOCAL_STACK: '1' }],
    [
      'LOCAL_STACK=true inside a Lambda function',
      false,
      { LOCAL_STACK: 'true', AWS_LAMBDA_FUNCTION_NAME: 'groupshoot-checkin' },
    ],
  ])('with %s, local is %s', (_case, local, environment) => {
    // Prepare
    delete process.env.LOCAL_STACK;
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    Object.assign(process.env, environment, { CHECKIN_PAGE_URL: PAGE });

    // Act
    const settings = returnUrlSettings();

    // Assess
    expect(settings).toEqual({ checkinPageUrl: PAGE, local });
  });
});

describe('allowableReturnOrigin', () => {
  it.each([
    ['https://photos.example.com', 'https://photos.example.com'],
    ['https://photos.example.com/', 'https://photos.example.com'],
    [' HTTPS://Photos.Example.COM:443 ', 'https://photos.example.com'],
    ['https://photos.example.com:8443', 'https://photos.example.com:8443'],
  ])('takes %j as %s', (text, origin) => {
    expect(allowableReturnOrigin(text)).toBe(origin);
  });

  it.each([
    ['http', 'http://photos.example.com'],
    ['a path', 'https://photos.example.com/checkin'],
    ['a query', 'https://photos.example.com/?a=1'],
    ['a fragment', 'https://photos.example.com/#top'],
    ['credentials', 'https://user:secret@photos.example.com'],
    ['localhost', 'https://localhost'],
    ['127.0.0.1', 'https://127.0.0.1:8443'],
    ['no URL', 'photos.example.com'],
    ['javascript:', 'javascript:alert(1)'],
  ])('refuses %s', (_case, text) => {
    expect(allowableReturnOrigin(text)).toBeUndefined();
  });
});

describe('checkoutReturnUrls', () => {
  const context = {
    tenantSlug: 'demo-studio',
    galleryToken: 'gal123',
    statusToken: 'gst_status',
    retryToken: 'grt_retry',
  };

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
