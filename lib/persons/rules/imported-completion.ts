import { nowIso } from '#lib/platform/clock';
import { sameEmailAddress } from '#lib/platform/email-address';
import type { DeclaredIdentity, Person, PersonDraft } from '#lib/persons/rules/person-model';

/**
 * `imported` as its own check-in completes it (importedOnly galleries), free or once paid. What
 * HR imported as the person's identity (name, email, employee ID) stays: a participant's typing
 * never takes it over, and where they declared something else it is kept beside it
 * (`declared`). An address the import lacked is the participant's (the emails to them go
 * there); an employee ID the import lacked is only declared, so that no typed ID names an HR
 * export file. The rest of what the participant gave replaces the import's, and what they left
 * blank keeps it.
 */
export function completedPerson(imported: Person, checkin: PersonDraft): Person {
  const declared = declaredIdentity(imported, checkin);
  return {
    ...imported,
    name: imported.name,
    email: imported.email ?? checkin.email,
    employeeId: imported.employeeId,
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
    ...(declared ? { declared } : {}),
  };
}

/** What the check-in declared of the person's identity that differs from the import; undefined when nothing does. */
function declaredIdentity(imported: Person, checkin: PersonDraft): DeclaredIdentity | undefined {
  const declared: DeclaredIdentity = {
    ...(checkin.name !== imported.name ? { name: checkin.name } : {}),
    ...(checkin.email && imported.email && !sameEmailAddress(checkin.email, imported.email)
      ? { email: checkin.email }
      : {}),
    ...(checkin.employeeId && checkin.employeeId !== imported.employeeId ? { employeeId: checkin.employeeId } : {}),
  };
  return Object.keys(declared).length > 0 ? declared : undefined;
}

/** What a completion never changes: the person's identity and origin, and its photo count (the photo ingest keeps that). */
export const UNCHANGED_BY_COMPLETION: ReadonlySet<string> = new Set([
  'personId',
  'code',
  'source',
  'createdAt',
  'photoCount',
] satisfies (keyof Person)[]);
