import type { SpotCounter } from '#lib/galleries/rules/spot-counters';
import type { PublicLimits } from '#lib/galleries/rules/public-limits';
import type { RetentionPolicy } from '#lib/galleries/rules/retention-policy';
import type { FaceMatchingMode, FaceThresholds } from '#lib/galleries/rules/face-matching';
import type { CheckinPolicy } from '#lib/galleries/rules/checkin-policy';
import type { Branding } from '#lib/tenants/rules/branding';
import type { Language } from '#lib/platform/languages';

/** Gallery configuration as the domain sees it; lib/galleries/store/galleries.ts maps it to items. */
/** The gallery an operation works in: every item of a gallery is keyed by both. */
export interface GalleryScope {
  tenantId: string;
  token: string;
}

export interface GranularConsents {
  face: boolean;
  notification: boolean;
  hrExport: boolean;
}

/**
 * The ways into "My photos" besides a photo link by email, which is always on
 * (docs/photos.md#the-participants-photos): both off unless the gallery turns them on.
 */
export interface PhotoAccess {
  /** myPhotos with the access code and the person's email. */
  codeAndEmail: boolean;
  /** myPhotos with the access code and the employee ID, for persons without an email. */
  codeAndEmployeeId: boolean;
}

export const DEFAULT_PHOTO_ACCESS: PhotoAccess = { codeAndEmail: false, codeAndEmployeeId: false };

/**
 * How the gallery's HR exports name their files (docs/hr-export.md#naming-and-clashes). An
 * employee ID HR imported always names its person's file; one a participant typed at check-in
 * only where the studio turns this on, and never one HR gave another person of the gallery.
 */
export interface HrExportSettings {
  /** A self-declared employee ID (a person who checked in, not imported) names the file; else the person ID does. */
  declaredIdsNameFiles: boolean;
}

export const DEFAULT_HR_EXPORT_SETTINGS: HrExportSettings = { declaredIdsNameFiles: false };

export interface Gallery {
  tenantId: string;
  token: string;
  galleryName: string;
  isGroupShoot: boolean;
  selfieEnabled: boolean;
  selfieRequired: boolean;
  consentRequired: boolean;
  consentText?: string;
  showShootingDaySelector: boolean;
  /** Which granular consents the check-in asks for; only enabled ones are stored. */
  granularConsents: GranularConsents;
  /** Limits of the public routes this gallery sets for itself; the defaults elsewhere (lib/galleries/rules/public-limits.ts). */
  publicLimits?: Partial<PublicLimits>;
  /** How long this gallery keeps personal data, where it differs from the defaults (lib/galleries/rules/retention-policy.ts). */
  retention?: Partial<RetentionPolicy>;
  /** The ways into "My photos" by access code this gallery allows. */
  photoAccess: PhotoAccess;
  /** Whether faces give a second opinion on its shoot photos, where it differs from the default (lib/galleries/rules/face-matching.ts). */
  faceMatching?: FaceMatchingMode;
  /** Its own face distances, where they differ from the defaults. */
  faceThresholds?: Partial<FaceThresholds>;
  /** Who may check in, where it differs from open to anyone (lib/galleries/rules/checkin-policy.ts). */
  checkinPolicy?: CheckinPolicy;
  /** How its HR exports name files, where the studio set it; DEFAULT_HR_EXPORT_SETTINGS where absent. */
  hrExport?: HrExportSettings;
  /** The language of `consentText` and of the page and emails where a participant's is not known; English where absent. */
  defaultLanguage?: Language;
  /** The consent text in other languages (lib/galleries/rules/page-settings.ts). */
  consentTexts?: Partial<Record<Language, string>>;
  /** The terms of its paid packages, an https URL the page links the terms checkbox to. */
  termsUrl?: string;
  /** Its own logo and accent colour; where absent, the tenant's. */
  branding?: Branding;
  /** The last time the camera cards of the whole gallery were printed (`cards pdf`), and how many. */
  cardsPrinted?: CardsPrinted;
  createdAt: string;
}

export interface ShootingDay {
  id: string;
  /** YYYY-MM-DD */
  date: string;
  label: string;
  /** HH:MM */
  startTime: string;
  /** HH:MM */
  endTime: string;
  /** Capacity; absent when the day has none. */
  maxPersons?: number;
  /** Persons holding a spot: imported, checked in, or reserved by a pending payment. */
  booked: number;
  /** The counters its spots are counted on (rules/spot-counters.ts); absent where only the day's item counts them. */
  spotCounters?: SpotCounter[];
  /** The last time the camera cards of this day were printed (`cards pdf --day`), and how many. */
  cardsPrinted?: CardsPrinted;
}

/** A printing of camera cards: how many cards, and when (ISO time). */
export interface CardsPrinted {
  cards: number;
  at: string;
}

export interface GalleryPackage {
  id: string;
  name: string;
  description: string;
  /** In minor units of `currency` (cents); 0 for a free package. */
  price: number;
  /** ISO 4217, lowercase as Stripe uses it. */
  currency: string;
  position: number;
}

export const FORM_FIELD_TYPES = ['text', 'textarea', 'number', 'select'] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];
export const BUILT_IN_FIELD_KEYS = ['employeeId', 'phone', 'department', 'notes'] as const;

export interface FormFieldOption {
  value: string;
  label: string;
}

export interface FormField {
  key: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  enabled: boolean;
  position: number;
  options?: FormFieldOption[];
}

/** Counters kept up to date by every write, so statistics never read the persons. */
export interface GalleryCounters {
  personsImported: number;
  personsCheckedIn: number;
  personsWithSelfie: number;
  personsWithPhotos: number;
  photos: number;
  /** Shoot photos in the inbox that belong to nobody (docs/photos.md#sorting-at-ingest). */
  photosUnassigned: number;
  /** Shoot photos withheld for review because the face did not match the card's person (docs/photos.md#review). */
  photosWithheld: number;
  /** Camera cards among the shoot photos (never delivered as photos). */
  cardPhotos: number;
  /** Unassigned shoot photos dismissed by hand as nobody's (counted among photosUnassigned too; not in the review queue). */
  photosDismissed: number;
  /** Moved by every change of the gallery's confirmed reference faces: warm instances' copies of them are stale (lib/faces/). */
  referenceFacesGeneration: number;
  ordersPending: number;
  ordersPaid: number;
  ordersExpired: number;
  ordersCanceled: number;
}

export const GALLERY_COUNTER_NAMES = [
  'personsImported',
  'personsCheckedIn',
  'personsWithSelfie',
  'personsWithPhotos',
  'photos',
  'photosUnassigned',
  'photosWithheld',
  'cardPhotos',
  'photosDismissed',
  'referenceFacesGeneration',
  'ordersPending',
  'ordersPaid',
  'ordersExpired',
  'ordersCanceled',
] as const satisfies readonly (keyof GalleryCounters)[];

export interface GalleryConfiguration {
  gallery: Gallery;
  shootingDays: ShootingDay[];
  packages: GalleryPackage[];
  formFields: FormField[];
  counters: GalleryCounters;
}

const CUSTOM_KEY_PATTERN = /^custom-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Built-in keys, or `custom-` followed by a lowercase UUID. */
export function isValidFormFieldKey(key: string): boolean {
  return (BUILT_IN_FIELD_KEYS as readonly string[]).includes(key) || CUSTOM_KEY_PATTERN.test(key);
}

export function requiresPayment(pkg: GalleryPackage): boolean {
  return pkg.price > 0;
}
