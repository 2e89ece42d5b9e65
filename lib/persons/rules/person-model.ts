import { monotonicFactory } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { now } from '#lib/platform/clock';
import type { Language } from '#lib/platform/languages';

/** Where a person came from: an HR import or a participant's own check-in. */
export type PersonSource = 'import' | 'checkin';

/** Consent flags; null where the person was never asked (imported, or the gallery does not ask). */
export interface PersonConsents {
  consentGiven: boolean | null;
  faceConsent: boolean | null;
  notificationConsent: boolean | null;
  hrExportConsent: boolean | null;
}

/** The consents a participant may change after check-in: every one but the studio's own (consentGiven), which only erasure ends. */
export const PARTICIPANT_CONSENTS = ['faceConsent', 'notificationConsent', 'hrExportConsent'] as const;
export type ParticipantConsent = (typeof PARTICIPANT_CONSENTS)[number];

/** Who changed a consent after check-in: the participant (photo link page, unsubscribe link) or the studio (admin CLI). */
export type ConsentChangedBy = 'participant' | 'studio';

/** The last change of one consent after check-in: its new value, when, and by whom. */
export interface ConsentChange {
  given: boolean;
  /** ISO 8601. */
  at: string;
  by: ConsentChangedBy;
}

/** Everything the service holds about a participant. */
export interface Person {
  personId: string;
  name: string;
  email: string | null;
  employeeId: string | null;
  phone: string | null;
  department: string | null;
  notes: string | null;
  shootingDayId: string | null;
  /** The package chosen at check-in (free packages; paid ones once paid). */
  packageId: string | null;
  orderNotes: string | null;
  code: string;
  consents: PersonConsents;
  /** The last change of each consent changed since check-in (docs/personal-data.md#consents); absent for one never changed. */
  consentChanges?: Partial<Record<ParticipantConsent, ConsentChange>>;
  /** Values of enabled `custom-*` form fields, keyed by field key. */
  customFields: Record<string, string | number>;
  source: PersonSource;
  createdAt: string;
  /** An imported person's own check-in completed it then (importedOnly galleries); absent until it does, and for every other person. */
  checkedInAt?: string;
  hasSelfie: boolean;
  photoCount: number;
  /** The language the participant checked in in (the page's); the emails to them are written in it. Absent for imported persons until they check in. */
  language?: Language;
  /**
   * What an imported person's own check-in declared where it differs from what HR imported
   * (name, email, employee ID): HR's values stay the person's, and these are kept beside them,
   * as declared. Absent when the check-in agreed with the import, and for every other person.
   */
  declared?: DeclaredIdentity;
  /** The photo chosen as the person's portrait (by the participant or the photographer); absent without a pick. A pick no longer among the person's photos counts as none. */
  pickedPhotoId?: string;
}

/** The identity a participant declared at check-in, beside the one HR imported. */
export interface DeclaredIdentity {
  name?: string;
  email?: string;
  employeeId?: string;
}

/** A person before storage gives it an access code. */
export type PersonDraft = Omit<Person, 'code'>;

export const NO_CONSENTS: PersonConsents = {
  consentGiven: null,
  faceConsent: null,
  notificationConsent: null,
  hrExportConsent: null,
};

const personUlid = monotonicFactory(pooledRandomFraction);

/** `per_` + a lowercase ULID: unique, and sorting by ID sorts by creation (monotonic within a millisecond). */
export function newPersonId(): string {
  return `per_${personUlid(now()).toLowerCase()}`;
}
