import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { admin } from '../support/admin';
import { type TestTenant, createTestTenant } from '../support/factories';
import { useLocalApi } from '../support/local-api';

const api = useLocalApi();
const files = mkdtempSync(join(tmpdir(), 'page-settings-'));

const inGallery = (studio: TestTenant) => ['--tenant', studio.slug, '--gallery', studio.token];
const checkinInfo = async (studio: TestTenant) =>
  (await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders })).body;

/** A wide PNG logo with EXIF-like text metadata, written to a file the CLI reads. */
async function logoFile(name: string, width = 1200, height = 300): Promise<string> {
  const path = join(files, name);
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 10, g: 88, b: 202, alpha: 0.8 } } })
    .withMetadata({ exif: { IFD0: { Copyright: 'Studio Secret GmbH' } } })
    .png()
    .toBuffer();
  writeFileSync(path, png);
  return path;
}

describe('gallery page, consent-text, branding and tenant branding (admin CLI), as GET check-in info serves them', () => {
  it('serves English, the gallery consent text under it, no terms link and no branding where nothing is set', async () => {
    const studio = await createTestTenant();
    const info = await checkinInfo(studio);
    expect(info).toMatchObject({
      defaultLanguage: 'en',
      termsUrl: null,
      branding: { logoUrl: null, accentColor: null },
    });
    expect(info.consentTexts).toEqual(info.consentText === null ? {} : { en: info.consentText });
  });

  it('sets the default language and the terms link, and serves the consent texts by language', async () => {
    // Prepare
    const studio = await createTestTenant();
    await admin(
      'gallery',
      'update',
      ...inGallery(studio),
      '--consent-text',
      'Ich willige ein, dass Fotos von mir gemacht werden.',
    );
    // Act
    const page = await admin(
      'gallery',
      'page',
      ...inGallery(studio),
      '--default-language',
      'de',
      '--terms-url',
      'https://studio.example/agb',
    );
    const french = await admin(
      'gallery',
      'consent-text',
      ...inGallery(studio),
      '--language',
      'fr',
      '--text',
      "J'accepte d'être photographié.",
    );
    const english = await admin(
      'gallery',
      'consent-text',
      ...inGallery(studio),
      '--language',
      'en',
      '--text',
      'I agree to be photographed.',
    );
    const removed = await admin(
      'gallery',
      'consent-text',
      ...inGallery(studio),
      '--language',
      'en',
      '--remove',
      '--json',
    );
    const info = await checkinInfo(studio);
    // Assess
    expect([page.code, french.code, english.code, removed.code]).toEqual([0, 0, 0, 0]);
    expect(page.out).toMatch(/default language\s+de/);
    expect(removed.json().consentTexts).toEqual({
      de: 'Ich willige ein, dass Fotos von mir gemacht werden.',
      fr: "J'accepte d'être photographié.",
    });
    expect(info).toMatchObject({
      defaultLanguage: 'de',
      consentText: 'Ich willige ein, dass Fotos von mir gemacht werden.',
      consentTexts: { de: 'Ich willige ein, dass Fotos von mir gemacht werden.', fr: "J'accepte d'être photographié." },
      termsUrl: 'https://studio.example/agb',
    });
  });

  it('takes the terms link away with --no-terms-url', async () => {
    const studio = await createTestTenant();
    await admin('gallery', 'page', ...inGallery(studio), '--terms-url', 'https://studio.example/terms');
    const run = await admin('gallery', 'page', ...inGallery(studio), '--no-terms-url');
    expect(run.code).toBe(0);
    expect((await checkinInfo(studio)).termsUrl).toBeNull();
  });

  it.each([
    [
      'a terms link over http',
      ['gallery', 'page', '--terms-url', 'http://studio.example/terms'],
      /must start with https/,
    ],
    [
      'a terms link with a password',
      ['gallery', 'page', '--terms-url', 'https://user:secret@studio.example/terms'],
      /user name or password/,
    ],
    [
      'a terms link of 501 characters',
      ['gallery', 'page', '--terms-url', `https://studio.example/${'t'.repeat(478)}`],
      /longer than 500/,
    ],
    ['a language of none of ours', ['gallery', 'page', '--default-language', 'es'], /--default-language/],
    ['a consent text without its language', ['gallery', 'consent-text', '--text', 'Oui'], /--language is required/],
    [
      'a consent text and --remove at once',
      ['gallery', 'consent-text', '--language', 'fr', '--text', 'Oui', '--remove'],
      /either --text TEXT or --remove/,
    ],
    [
      'an accent colour of too little contrast (#777777: 4.48:1)',
      ['gallery', 'branding', '--accent-color', '#777777'],
      /contrast of 4\.48:1 against white; the page needs at least 4\.5:1/,
    ],
    [
      'an accent colour that is no #rrggbb',
      ['gallery', 'branding', '--accent-color', 'navy'],
      /not a colour of the form #rrggbb/,
    ],
    ['a logo that is no image', ['gallery', 'branding', '--logo', __filename], /not a PNG, JPEG or WebP/],
    [
      'a logo file that does not exist',
      ['gallery', 'branding', '--logo', '/nonexistent/logo.png'],
      /cannot read the file/,
    ],
  ])('refuses %s with exit code 2 and changes nothing', async (_case, [resource, command, ...options], message) => {
    // Prepare
    const studio = await createTestTenant();
    const before = await checkinInfo(studio);
    // Act
    const run = await admin(resource!, command!, ...inGallery(studio), ...options);
    // Assess
    expect(run.code).toBe(2);
    expect(run.err.join('\n')).toMatch(message);
    expect(await checkinInfo(studio)).toEqual({ ...before, requestId: expect.any(String) });
  });

  it("stores a logo re-encoded (WebP within 480×160, no metadata) and an accent colour, the gallery's before the tenant's", async () => {
    // Prepare
    const studio = await createTestTenant();
    const tenantLogo = await logoFile('tenant.png');
    // Act: the tenant's logo and colour, then the gallery's own colour only
    const tenant = await admin(
      'tenant',
      'branding',
      '--slug',
      studio.slug,
      '--logo',
      tenantLogo,
      '--accent-color',
      '#0A58CA',
    );
    const tenantOnly = await checkinInfo(studio);
    const gallery = await admin('gallery', 'branding', ...inGallery(studio), '--accent-color', '#767676');
    const both = await checkinInfo(studio);
    // Assess
    expect([tenant.code, gallery.code]).toEqual([0, 0]);
    expect(tenantOnly.branding.accentColor).toBe('#0a58ca');
    expect(both.branding).toEqual({ logoUrl: tenantOnly.branding.logoUrl, accentColor: '#767676' });
    const [, base64] = (tenantOnly.branding.logoUrl as string).split('data:image/webp;base64,');
    const stored = sharp(Buffer.from(base64!, 'base64'));
    const metadata = await stored.metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.hasAlpha]).toEqual(['webp', 480, 120, true]);
    expect([metadata.exif, metadata.icc, metadata.xmp]).toEqual([undefined, undefined, undefined]);
  });

  it('drops a logo or a colour with --no-logo and --no-accent-color, the other staying', async () => {
    const studio = await createTestTenant();
    await admin(
      'gallery',
      'branding',
      ...inGallery(studio),
      '--logo',
      await logoFile('small.png', 64, 64),
      '--accent-color',
      '#123456',
    );
    const run = await admin('gallery', 'branding', ...inGallery(studio), '--no-logo', '--json');
    expect(run.json()).toEqual({ logoUrl: null, accentColor: '#123456' });
    expect((await checkinInfo(studio)).branding).toEqual({ logoUrl: null, accentColor: '#123456' });
  });

  it("shows no tenant's branding to another tenant's galleries", async () => {
    const [branded, other] = await Promise.all([createTestTenant(), createTestTenant()]);
    await admin('tenant', 'branding', '--slug', branded.slug, '--accent-color', '#5a2d82');
    expect((await checkinInfo(other)).branding).toEqual({ logoUrl: null, accentColor: null });
    expect((await checkinInfo(branded)).branding.accentColor).toBe('#5a2d82');
  });
});
