import { readFile } from 'node:fs/promises';
import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { formatFields, formatTable } from '../cli-kit/output';
import { findGallery, findTenant } from '../cli-kit/lookups';
import { type OptionValues, flag, galleryToken, optionalChoice, optionalText, tenantSlug } from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { type Tenant, updateTenantSettings } from '#lib/tenants/store/tenants';
import { LogoImageError, logoDataUrl } from '#lib/tenants/adapters/logo-image';
import type { Gallery } from '#lib/galleries/rules/gallery-model';
import {
  MAX_CONSENT_TEXT_LENGTH,
  MAX_TERMS_URL_LENGTH,
  checkTermsUrl,
  consentTextsOf,
  defaultLanguageOf,
} from '#lib/galleries/rules/page-settings';
import { type Branding, pageBrandingOf } from '#lib/tenants/rules/branding';
import { checkAccentColor } from '#lib/tenants/rules/accent-color';
import { LANGUAGES } from '#lib/platform/languages';

/** `gallery page|consent-text|branding`: what a studio gives the check-in page (docs/checkin-page.md#settings-a-studio-gives-the-page). */
export const galleryPageCommands: CommandHandlers = {
  /** Shows the page settings; with options, sets the default language or the terms link. */
  async page(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const defaultLanguage = optionalChoice(values, 'default-language', LANGUAGES);
    const termsUrl = termsUrlChange(values);
    const { tenant } = await findGallery(values);
    if (defaultLanguage !== undefined || termsUrl !== undefined) {
      await updateGallerySettings(tenant.tenantId, token, { defaultLanguage, termsUrl });
    }
    return pageResult(await findGallery(values));
  },

  /** Sets or removes the consent text in one language. */
  async 'consent-text'(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const language = optionalChoice(values, 'language', LANGUAGES);
    if (language === undefined) throw new UsageError(`--language is required: one of ${LANGUAGES.join(', ')}`);
    const remove = flag(values, 'remove');
    const text = optionalText(values, 'text', MAX_CONSENT_TEXT_LENGTH);
    if ((text === undefined) === !remove) throw new UsageError('Give either --text TEXT or --remove');
    const { tenant, configuration } = await findGallery(values);
    const { [language]: _replaced, ...others } = configuration.gallery.consentTexts ?? {};
    await updateGallerySettings(tenant.tenantId, token, {
      consentTexts: text === undefined ? others : { ...others, [language]: text },
    });
    return pageResult(await findGallery(values));
  },

  /** The gallery's own logo and accent colour; where it has none, its tenant's show. */
  async branding(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const change = await brandingChange(values);
    const { tenant, configuration } = await findGallery(values);
    const branding = change ? change(configuration.gallery.branding) : configuration.gallery.branding;
    if (change) await updateGallerySettings(tenant.tenantId, token, { branding });
    return brandingResult(`Branding of gallery ${token}`, branding, pageBrandingOf(branding, tenant.branding));
  },
};

/** `tenant branding`: the logo and accent colour of every gallery of the tenant that sets none of its own. */
export const tenantPageCommands: CommandHandlers = {
  async branding(values) {
    const slug = tenantSlug(values, 'slug');
    const change = await brandingChange(values);
    const tenant = await findTenant(values, 'slug');
    const branding = change ? change(tenant.branding) : tenant.branding;
    if (change && !(await updateTenantSettings(slug, { branding })))
      throw new NotFoundError(`No tenant with slug "${slug}"`);
    return brandingResult(
      `Branding of tenant "${slug}" (galleries without their own)`,
      branding,
      pageBrandingOf(undefined, branding),
    );
  },
};

/** `--terms-url URL` as stored, `--no-terms-url` as null; undefined when neither is given. */
function termsUrlChange(values: OptionValues): string | null | undefined {
  const given = optionalText(values, 'terms-url', MAX_TERMS_URL_LENGTH + 100);
  const none = flag(values, 'no-terms-url');
  if (given !== undefined && none) throw new UsageError('Give either --terms-url or --no-terms-url, not both');
  if (none) return null;
  if (given === undefined) return undefined;
  const checked = checkTermsUrl(given);
  if ('problem' in checked) throw new UsageError(`--terms-url: ${checked.problem}`);
  return checked.url;
}

/**
 * What the branding options change, as a function of the branding before; undefined when none
 * is given. Files and colours are checked (and the logo re-encoded) before anything is read.
 */
async function brandingChange(values: OptionValues): Promise<((before: Branding | undefined) => Branding) | undefined> {
  const logoFile = optionalText(values, 'logo', 1000);
  const colorText = optionalText(values, 'accent-color', 50);
  const noLogo = flag(values, 'no-logo');
  const noColor = flag(values, 'no-accent-color');
  if (logoFile !== undefined && noLogo) throw new UsageError('Give either --logo or --no-logo, not both');
  if (colorText !== undefined && noColor)
    throw new UsageError('Give either --accent-color or --no-accent-color, not both');
  if (logoFile === undefined && colorText === undefined && !noLogo && !noColor) return undefined;
  const logoUrl = logoFile === undefined ? undefined : await logoFromFile(logoFile);
  const checked = colorText === undefined ? undefined : checkAccentColor(colorText);
  if (checked && 'problem' in checked) throw new UsageError(`--accent-color: ${checked.problem}`);
  const accentColor = checked?.color;
  return (before) => {
    const { logoUrl: oldLogo, accentColor: oldColor } = before ?? {};
    const logo = noLogo ? undefined : (logoUrl ?? oldLogo);
    const color = noColor ? undefined : (accentColor ?? oldColor);
    return { ...(logo ? { logoUrl: logo } : {}), ...(color ? { accentColor: color } : {}) };
  };
}

async function logoFromFile(path: string): Promise<string> {
  const file = await readFile(path).catch(() => {
    throw new UsageError(`--logo: cannot read the file ${path}`);
  });
  try {
    return await logoDataUrl(file);
  } catch (error) {
    if (error instanceof LogoImageError) throw new UsageError(`--logo: ${error.message}`);
    throw error;
  }
}

function logoInWords(logoUrl: string | null | undefined): string {
  return logoUrl ? `WebP, ${Math.ceil((logoUrl.length * 3) / 4 / 1024)} KiB` : 'none';
}

function brandingResult(
  headline: string,
  own: Branding | undefined,
  shown: { logoUrl: string | null; accentColor: string | null },
): CommandResult {
  return {
    data: { logoUrl: own?.logoUrl ?? null, accentColor: own?.accentColor ?? null },
    lines: [
      headline,
      ...formatFields([
        ['logo', logoInWords(own?.logoUrl)],
        ['accent colour', own?.accentColor ?? 'none'],
        [
          'the page shows',
          `logo: ${logoInWords(shown.logoUrl)}; accent colour: ${shown.accentColor ?? "the page's own"}`,
        ],
      ]),
    ],
  };
}

function pageResult({
  tenant,
  configuration: { gallery },
}: {
  tenant: Tenant;
  configuration: { gallery: Gallery };
}): CommandResult {
  const branding = pageBrandingOf(gallery.branding, tenant.branding);
  const defaultLanguage = defaultLanguageOf(gallery);
  const consentTexts = consentTextsOf(gallery);
  return {
    data: {
      defaultLanguage,
      consentText: gallery.consentText ?? null,
      consentTexts,
      termsUrl: gallery.termsUrl ?? null,
      branding,
    },
    lines: [
      `Check-in page settings of gallery ${gallery.token}`,
      ...formatFields([
        ['default language', defaultLanguage],
        ['terms link', gallery.termsUrl ?? 'none'],
        ['logo', logoInWords(branding.logoUrl)],
        ['accent colour', branding.accentColor ?? "the page's own"],
      ]),
      '',
      `Consent texts (${gallery.consentRequired ? 'consent is asked' : 'consent is not asked'})`,
      ...formatTable(
        ['LANGUAGE', 'TEXT'],
        LANGUAGES.map((language) => [
          language,
          consentTexts[language] ?? "(none: the page shows the default language's text with a note)",
        ]),
      ),
    ],
  };
}
