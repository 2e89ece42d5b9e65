import { listPersons as listPersonsPage } from '#lib/persons/store/persons';
import type { PersonsPage } from '#lib/persons/person-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { DomainError } from '#lib/platform/domain-error';
import { PERSON_TEXT_LIMITS } from '#lib/persons/rules/person-limits';
import { PERSONS_PAGE, decodePersonCursor, encodePersonCursor } from '#lib/platform/page-cursor';
import { integrationPersonView } from '#lib/persons/rules/person-views';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

function invalidParameter(parameter: string, message: string): DomainError {
  return new DomainError('invalid_parameter', message, { parameter });
}

function pageLimit(value: string | undefined): number {
  if (value === undefined) return PERSONS_PAGE.defaultLimit;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : NaN;
  if (!(limit >= 1 && limit <= PERSONS_PAGE.maxLimit)) {
    throw invalidParameter('limit', `limit must be a whole number from 1 to ${PERSONS_PAGE.maxLimit}.`);
  }
  return limit;
}

/**
 * A page of the gallery's persons, oldest first, optionally only those with one exact
 * employeeId. `nextCursor` continues the listing and is null on the last page. `loaded`: the
 * gallery the pipeline read already.
 */
export async function listPersons(
  tenant: Tenant,
  token: string | undefined,
  query: Record<string, string>,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof PersonsPage>> {
  const { gallery } = await loadGroupShootGallery(tenant.tenantId, token, loaded);
  const limit = pageLimit(query.limit);
  const afterPersonId = query.cursor === undefined ? undefined : decodePersonCursor(query.cursor);
  if (query.cursor !== undefined && !afterPersonId)
    throw invalidParameter('cursor', 'cursor is not a cursor of this listing.');
  const employeeId = query.employeeId?.trim();
  if (employeeId !== undefined && (employeeId === '' || employeeId.length > PERSON_TEXT_LIMITS.employeeId)) {
    throw invalidParameter('employeeId', `employeeId must have 1 to ${PERSON_TEXT_LIMITS.employeeId} characters.`);
  }
  const page = await listPersonsPage(
    { tenantId: tenant.tenantId, token: gallery.token },
    { limit, afterPersonId, employeeId },
  );
  return {
    galleryToken: gallery.token,
    persons: page.persons.map(integrationPersonView),
    nextCursor: page.lastPersonId ? encodePersonCursor(page.lastPersonId) : null,
  };
}
