import { validateCustomFields } from '#lib/galleries/rules/custom-fields';
import { DomainError, invalidField } from '#lib/platform/domain-error';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { type LimitedTextField, TEXT_LIMITS } from '#lib/platform/field-limits';
import { BUILT_IN_FIELD_KEYS, type GalleryConfiguration, type GalleryPackage, type ShootingDay } from '#lib/galleries/rules/gallery-model';
import type { PersonConsents } from '#lib/persons/rules/person-model';
import { decodeSelfie, readJpegFrameSize } from '#lib/checkin/rules/selfie';

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
}

/** Text fields in the order their errors take precedence; their limits are TEXT_LIMITS'. */
const TEXT_FIELDS = [
  'name',
  'email',
  'employeeId',
  'phone',
  'department',
  'notes',
  'orderNotes',
  'shootingDayId',
  'selectedPackageId',
] as const satisfies readonly LimitedTextField[];
const BOOLEAN_FIELDS = ['consentGiven', 'faceConsent', 'notificationConsent', 'hrExportConsent', 'termsAccepted'] as const;

/** Absent and null are "not given"; strings are trimmed and an empty one is not given either. */
function text(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Validates a submitCheckin body against the gallery, in the documented order of precedence:
 * name_required, email_required, field limits and types (invalid_field), consent_required,
 * custom fields, selfie (encoding, size and JPEG header), shooting day, package. Synchronous
 * and cheap: the selfie's image data is decoded later, by submitCheckin, and payment checks come
 * after that, with the tenant.
 */
export function validateCheckin(body: Record<string, unknown>, configuration: GalleryConfiguration): CheckinSubmission {
  const { gallery, formFields, shootingDays, packages } = configuration;
  if (isBlank(body.name)) throw new DomainError('name_required');
  if (isBlank(body.email)) throw new DomainError('email_required');

  for (const field of TEXT_FIELDS) {
    const limit = TEXT_LIMITS[field];
    const value = body[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalidField(field, `${field} must be a string.`);
    if (value.trim().length > limit) throw invalidField(field, `${field} must have at most ${limit} characters.`);
  }
  if (!isPlausibleEmail(text(body, 'email')!)) throw invalidField('email', 'email is not a valid address.');
  for (const field of BOOLEAN_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'boolean') throw invalidField(field, `${field} must be true or false.`);
  }
  if (body.selfieBase64 !== undefined && body.selfieBase64 !== null && typeof body.selfieBase64 !== 'string') {
    throw invalidField('selfieBase64', 'selfieBase64 must be a string.');
  }
  const customFields = body.customFields ?? {};
  if (customFields === null || typeof customFields !== 'object' || Array.isArray(customFields)) {
    throw invalidField('customFields', 'customFields must be an object keyed by form-field key.');
  }
  for (const field of formFields) {
    const builtIn = (BUILT_IN_FIELD_KEYS as readonly string[]).includes(field.key);
    if (builtIn && field.enabled && field.required && text(body, field.key) === null) {
      throw invalidField(field.key, `${field.label} is required.`);
    }
  }

  if (gallery.consentRequired && body.consentGiven !== true) throw new DomainError('consent_required');

  const customValues = validateCustomFields(customFields as Record<string, unknown>, formFields);

  const submittedSelfie = text(body, 'selfieBase64');
  if (gallery.selfieRequired && gallery.selfieEnabled && submittedSelfie === null) throw new DomainError('selfie_required');
  const selfieAsSent = gallery.selfieEnabled && submittedSelfie !== null ? decodeSelfie(submittedSelfie) : undefined;
  if (selfieAsSent) readJpegFrameSize(selfieAsSent);

  const shootingDayId = text(body, 'shootingDayId');
  const shootingDay = shootingDayId === null ? undefined : shootingDays.find((day) => day.id === shootingDayId);
  if (shootingDayId !== null && !shootingDay) throw new DomainError('unknown_shooting_day');

  const packageId = text(body, 'selectedPackageId');
  const selectedPackage = packageId === null ? undefined : packages.find((pkg) => pkg.id === packageId);
  if (packageId !== null && !selectedPackage) throw new DomainError('unknown_package');

  const granted = (enabled: boolean, value: unknown) => (enabled ? value === true : null);
  return {
    name: text(body, 'name')!,
    email: text(body, 'email')!,
    employeeId: text(body, 'employeeId'),
    phone: text(body, 'phone'),
    department: text(body, 'department'),
    notes: text(body, 'notes'),
    orderNotes: text(body, 'orderNotes'),
    consents: {
      consentGiven: typeof body.consentGiven === 'boolean' ? body.consentGiven : null,
      faceConsent: granted(gallery.granularConsents.face, body.faceConsent),
      notificationConsent: granted(gallery.granularConsents.notification, body.notificationConsent),
      hrExportConsent: granted(gallery.granularConsents.hrExport, body.hrExportConsent),
    },
    customFields: customValues,
    selfieAsSent,
    shootingDay,
    selectedPackage,
    termsAccepted: body.termsAccepted === true,
  };
}
