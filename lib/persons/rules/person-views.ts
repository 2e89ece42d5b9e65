import type { Person } from '#lib/persons/rules/person-model';

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
