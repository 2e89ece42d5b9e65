import type { CheckinInfo } from '#lib/checkin/checkin-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import {
  enabledFormFields,
  publicPackage,
  publicShootingDay,
  sortPackages,
  sortShootingDays,
} from '#lib/galleries/rules/gallery-views';
import { checkinPolicyOf } from '#lib/galleries/rules/checkin-policy';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { consentTextsOf, defaultLanguageOf } from '#lib/galleries/rules/page-settings';
import { pageBrandingOf } from '#lib/tenants/rules/branding';

/**
 * What a check-in page needs to render: the spec's fields, plus `formFields` (the enabled
 * form fields, as the form-fields endpoint returns them) because a public page holds no key,
 * the consent text and granular consents the page must show to ask for them, and who may check
 * in, for the page's hint on the email field; the page's language, translated consent texts,
 * terms link and branding (docs/checkin-page.md#settings-a-studio-gives-the-page).
 */
export async function getCheckinInfo(
  tenant: Tenant,
  token: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof CheckinInfo>> {
  const { gallery, shootingDays, packages, formFields } = await loadGroupShootGallery(tenant.tenantId, token, loaded);
  const policy = checkinPolicyOf(gallery.checkinPolicy);
  return {
    galleryName: gallery.galleryName,
    selfieEnabled: gallery.selfieEnabled,
    selfieRequired: gallery.selfieRequired,
    consentRequired: gallery.consentRequired,
    tenantSlug: tenant.slug,
    token: gallery.token,
    showShootingDaySelector: gallery.showShootingDaySelector,
    shootingDays: sortShootingDays(shootingDays).map(publicShootingDay),
    packages: sortPackages(packages).map(publicPackage),
    formFields: enabledFormFields(formFields),
    consentText: gallery.consentText ?? null,
    granularConsents: gallery.granularConsents,
    checkinMode: policy.mode,
    allowedEmailDomains: policy.allowedEmailDomains,
    photoAccess: gallery.photoAccess,
    defaultLanguage: defaultLanguageOf(gallery),
    consentTexts: consentTextsOf(gallery),
    termsUrl: gallery.termsUrl ?? null,
    branding: pageBrandingOf(gallery.branding, tenant.branding),
  };
}
