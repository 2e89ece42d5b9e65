import { nowIso } from '#lib/platform/clock';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';

/**
 * `imported` as its own check-in completes it (importedOnly galleries), free or once paid: what
 * the participant gave replaces, what they left blank keeps the import's.
 */
export function completedPerson(imported: Person, checkin: PersonDraft): Person {
  return {
    ...imported,
    name: checkin.name,
    email: checkin.email,
    employeeId: checkin.employeeId ?? imported.employeeId,
    phone: checkin.phone ?? imported.phone,
    department: checkin.department ?? imported.department,
    notes: checkin.notes ?? imported.notes,
    shootingDayId: checkin.shootingDayId ?? imported.shootingDayId,
    packageId: checkin.packageId ?? imported.packageId,
    orderNotes: checkin.orderNotes ?? imported.orderNotes,
    consents: checkin.consents,
    customFields: { ...imported.customFields, ...checkin.customFields },
    hasSelfie: imported.hasSelfie || checkin.hasSelfie,
    checkedInAt: nowIso(),
    ...(checkin.language ? { language: checkin.language } : {}),
  };
}

/** What a completion never changes: the person's identity and origin, and its photo count (the photo ingest keeps that). */
export const UNCHANGED_BY_COMPLETION: ReadonlySet<string> = new Set([
  'personId',
  'code',
  'source',
  'createdAt',
  'photoCount',
] satisfies (keyof Person)[]);
