import { nowIso } from '#lib/platform/clock';
import type { ImportInput, ImportResult } from '#lib/persons/person-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { addImportedBookings } from '#lib/galleries/store/day-bookings';
import { addToGalleryCounters } from '#lib/galleries/store/gallery-counters';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';
import { type SkipReason, importedPersonDraft, withKnownDay } from '#lib/persons/rules/person-import';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { loggableError, logger } from '#lib/platform/logger';

/**
 * Bulk import into the gallery `configuration` (the body parsed by parseImportRequest, each row
 * into its verdict): stores the valid rows with unique access codes, and answers exactly what
 * was stored. Rows that fail validation are skipped with a reason; rows that could not be
 * stored after retries are skipped as `not_written` (send them again).
 */
export async function importPersons(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: ImportInput,
): Promise<ResultMembers<typeof ImportResult>> {
  const { gallery, shootingDays } = configuration;
  const dayIds = new Set(shootingDays.map((day) => day.id));
  const createdAt = nowIso();

  const skippedDetails: { index: number; reason: SkipReason }[] = [];
  const drafts: PersonDraft[] = [];
  const rowIndexOf = new Map<string, number>();
  request.persons.forEach((parsed, index) => {
    const verdict = withKnownDay(parsed, dayIds);
    if (!verdict.ok) {
      skippedDetails.push({ index, reason: verdict.reason });
      return;
    }
    const draft = importedPersonDraft(verdict.row, createdAt);
    rowIndexOf.set(draft.personId, index);
    drafts.push(draft);
  });

  const scope = { tenantId: tenant.tenantId, token: gallery.token };
  const { written, failed } = await insertPersonsWithCodes(scope, drafts);
  for (const draft of failed) skippedDetails.push({ index: rowIndexOf.get(draft.personId)!, reason: 'not_written' });
  if (failed.length > 0) logger.error('import rows not written after retries', { notWritten: failed.length });

  await Promise.all([
    addToGalleryCounters(scope, { personsImported: written.length }),
    addImportedBookings(scope, bookingsByDay(written), shootingDays),
  ]).catch((error: Error) => {
    // The persons are stored and must be reported; the counters lag until recounted.
    logger.error('import counters not updated', { error: loggableError(error) });
  });

  written.sort((a, b) => rowIndexOf.get(a.personId)! - rowIndexOf.get(b.personId)!);
  skippedDetails.sort((a, b) => a.index - b.index);
  return {
    galleryToken: gallery.token,
    imported: written.length,
    skipped: skippedDetails.length,
    persons: written.map(importedPersonView),
    ...(skippedDetails.length > 0 ? { skippedDetails } : {}),
  };
}

function bookingsByDay(persons: readonly Person[]): Map<string, number> {
  const bookings = new Map<string, number>();
  for (const person of persons) {
    if (person.shootingDayId) bookings.set(person.shootingDayId, (bookings.get(person.shootingDayId) ?? 0) + 1);
  }
  return bookings;
}

function importedPersonView(person: Person) {
  return {
    personId: person.personId,
    name: person.name,
    email: person.email,
    employeeId: person.employeeId,
    shootingDayId: person.shootingDayId,
    code: person.code,
  };
}
