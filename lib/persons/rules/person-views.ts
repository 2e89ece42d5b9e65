import { type ConsentChange, PARTICIPANT_CONSENTS, type Person } from '#lib/persons/rules/person-model';

/** A consent's last change after check-in, as the server-side endpoints show it. */
function changeView(change: ConsentChange | undefined) {
  return change ? { given: change.given, changedAt: change.at, changedBy: change.by } : null;
}

/** A person as the server-side endpoints show it: everything the service holds about them. */
export function integrationPersonView(person: Person) {
  return {
    personId: person.personId,
    name: person.name,
    email: person.email,
    employeeId: person.employeeId,
    phone: person.phone,
    department: person.department,
    notes: person.notes,
    shootingDayId: person.shootingDayId,
    packageId: person.packageId,
    orderNotes: person.orderNotes,
    code: person.code,
    ...person.consents,
    consentChanges: Object.fromEntries(
      PARTICIPANT_CONSENTS.map((consent) => [consent, changeView(person.consentChanges?.[consent])]),
    ) as Record<(typeof PARTICIPANT_CONSENTS)[number], ReturnType<typeof changeView>>,
    customFields: person.customFields,
    source: person.source,
    createdAt: person.createdAt,
    checkedInAt: person.checkedInAt ?? null,
    hasSelfie: person.hasSelfie,
    photoCount: person.photoCount,
    language: person.language ?? null,
    declared: person.declared ?? null,
  };
}
