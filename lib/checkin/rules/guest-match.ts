import { nowIso } from '#lib/platform/clock';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';

/**
 * What an `importedOnly` check-in does with the imported persons it names:
 * - `complete`: the first imported person it names that has not checked in yet; the check-in
 *   completes that person instead of creating one;
 * - `repeat`: every person it names by email has checked in already: a repeated check-in of the
 *   address, which creates a person as in an open gallery (within `checkinsPerEmail`);
 * - `none`: it names nobody on the guest list (not_on_guest_list).
 */
export type GuestMatch = { kind: 'complete'; person: Person } | { kind: 'repeat' } | { kind: 'none' };

/**
 * Decides from the imported persons holding the check-in's email address (`byEmail`) and those
 * with its employee ID (`byEmployeeId`), each in creation order; `invitedAddress`: whether any
 * imported person holds the address (also one left out of `byEmail` as taken). A person imported with an email
 * address is matched by that address only, so that knowing someone's employee ID does not open
 * their check-in; one imported without is matched by its employee ID, once: completing it gives
 * it the address, by which it is matched from then on.
 */
export function matchGuest(byEmail: readonly Person[], byEmployeeId: readonly Person[], invitedAddress = byEmail.length > 0): GuestMatch {
  const pending = (person: Person) => person.checkedInAt === undefined;
  const byAddress = byEmail.find(pending);
  if (byAddress) return { kind: 'complete', person: byAddress };
  const withoutAddress = byEmployeeId.find((person) => pending(person) && person.email === null);
  if (withoutAddress) return { kind: 'complete', person: withoutAddress };
  return invitedAddress ? { kind: 'repeat' } : { kind: 'none' };
}

/** `imported` as its check-in completes it: what the participant gave replaces, what they left blank keeps the import's. */
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
  };
}
