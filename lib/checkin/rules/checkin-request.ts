import { validateCustomFields } from '#lib/galleries/rules/custom-fields';
import { DomainError, invalidField } from '#lib/platform/domain-error';
import {
  BUILT_IN_FIELD_KEYS,
  type GalleryConfiguration,
  type GalleryPackage,
  type ShootingDay,
} from '#lib/galleries/rules/gallery-model';
import type { PersonConsents } from '#lib/persons/rules/person-model';
import { allowedDomainsInWords, checkinPolicyOf, isEmailDomainAllowed } from '#lib/galleries/rules/checkin-policy';
import { decodeSelfie, readJpegFrameSize } from '#lib/checkin/rules/selfie';
import type { Language } from '#lib/platform/languages';

/** A check-in that passed every rule that needs no storage. */
export interface CheckinSubmission {
  name: string;
  email: string;
  employeeId: string | null;
  phone: string | null;
  department: string | null;
  notes: string | null;
  orderNotes: string | null;
  consents: PersonConsents;
  customFields: Record<string, string | number>;
  /**
   * The selfie's bytes as sent, metadata and all: a JPEG whose header declares an acceptable
   * size. Never store them as they are: submitCheckin stores reencodeSelfie's output. Absent
   * when none was sent or the gallery takes none.
   */
  selfieAsSent?: Buffer;
  shootingDay?: ShootingDay;
  selectedPackage?: GalleryPackage;
  termsAccepted: boolean;
  /** The participant's language, where the page sent one. */
  language?: Language;
}

/**
 * A submitCheckin body as the edge parsed it (SubmitCheckinRequest, lib/checkin/checkin-schemas.ts):
 * name and email given, every member of its type and within its limit, strings trimmed, blanks
 * null or absent. What remains to check needs the gallery.
 */
export interface CheckinFields {
  name: string;
  email: string;
  employeeId?: string | null;
  phone?: string | null;
  department?: string | null;
  notes?: string | null;
  orderNotes?: string | null;
  shootingDayId?: string | null;
  selectedPackageId?: string | null;
  consentGiven?: boolean | null;
  faceConsent?: boolean | null;
  notificationConsent?: boolean | null;
  hrExportConsent?: boolean | null;
  termsAccepted?: boolean | null;
  selfieBase64?: string | null;
  customFields?: Record<string, unknown> | null;
  language?: Language | null;
}

/**
 * Validates a parsed submitCheckin body against the gallery, in the documented order of
 * precedence; the rules before these, up to the custom fields' type, are the parser's
 * (parseSubmitCheckin). Here: required built-in form fields (invalid_field), the email's domain
 * (email_domain_not_allowed), consent_required,
 * custom fields, selfie (encoding, size and JPEG header), shooting day, package. Synchronous and
 * cheap: the selfie's image data is decoded later, by submitCheckin, and payment checks come
 * after that, with the tenant.
 */
export function validateCheckin(fields: CheckinFields, configuration: GalleryConfiguration): CheckinSubmission {
  const { gallery, formFields, shootingDays, packages } = configuration;
  for (const field of formFields) {
    const builtIn = (BUILT_IN_FIELD_KEYS as readonly string[]).includes(field.key);
    if (
      builtIn &&
      field.enabled &&
      field.required &&
      (fields[field.key as (typeof BUILT_IN_FIELD_KEYS)[number]] ?? null) === null
    ) {
      throw invalidField(field.key, `${field.label} is required.`);
    }
  }

  const { allowedEmailDomains } = checkinPolicyOf(gallery.checkinPolicy);
  if (!isEmailDomainAllowed(fields.email, allowedEmailDomains)) {
    throw new DomainError('email_domain_not_allowed', allowedDomainsInWords(allowedEmailDomains));
  }

  if (gallery.consentRequired && fields.consentGiven !== true) throw new DomainError('consent_required');

  const customValues = validateCustomFields(fields.customFields ?? {}, formFields);

  const submittedSelfie = fields.selfieBase64 ?? null;
  if (gallery.selfieRequired && gallery.selfieEnabled && submittedSelfie === null)
    throw new DomainError('selfie_required');
  const selfieAsSent = gallery.selfieEnabled && submittedSelfie !== null ? decodeSelfie(submittedSelfie) : undefined;
  if (selfieAsSent) readJpegFrameSize(selfieAsSent);

  const shootingDayId = fields.shootingDayId ?? null;
  const shootingDay = shootingDayId === null ? undefined : shootingDays.find((day) => day.id === shootingDayId);
  if (shootingDayId !== null && !shootingDay) throw new DomainError('unknown_shooting_day');

  const packageId = fields.selectedPackageId ?? null;
  const selectedPackage = packageId === null ? undefined : packages.find((pkg) => pkg.id === packageId);
  if (packageId !== null && !selectedPackage) throw new DomainError('unknown_package');

  const granted = (enabled: boolean, value: boolean | null | undefined) => (enabled ? value === true : null);
  return {
    name: fields.name,
    email: fields.email,
    employeeId: fields.employeeId ?? null,
    phone: fields.phone ?? null,
    department: fields.department ?? null,
    notes: fields.notes ?? null,
    orderNotes: fields.orderNotes ?? null,
    consents: {
      consentGiven: fields.consentGiven ?? null,
      faceConsent: granted(gallery.granularConsents.face, fields.faceConsent),
      notificationConsent: granted(gallery.granularConsents.notification, fields.notificationConsent),
      hrExportConsent: granted(gallery.granularConsents.hrExport, fields.hrExportConsent),
    },
    customFields: customValues,
    selfieAsSent,
    shootingDay,
    selectedPackage,
    termsAccepted: fields.termsAccepted === true,
    ...(fields.language ? { language: fields.language } : {}),
  };
}
