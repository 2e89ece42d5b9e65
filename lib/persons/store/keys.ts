/**
 * The items of persons: the person, the index partitions by employee ID, by address and by imported address, and the access codes.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** The sort-key prefix of person items (a query's `begins_with`, or a stream record's kind). */
export const PERSON_ITEM_PREFIX = 'PERSON#';

export const personKeys = {
  /** Persons of a gallery: one item collection, sorted by personId (a ULID, so by creation). */
  personsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#PERSONS`,
  person: (tenantId: string, token: string, personId: string) => ({
    pk: `T#${tenantId}#G#${token}#PERSONS`,
    sk: `${PERSON_ITEM_PREFIX}${personId}`,
  }),
  /** GSI1 partition of a gallery's persons with one employee ID (only persons that have one). */
  personsByEmployeeId: (tenantId: string, token: string, employeeId: string) =>
    `T#${tenantId}#G#${token}#EMP#${employeeId}`,
  /**
   * GSI1 partition of a gallery's imported persons with one email address, by a hash of the
   * address (the guest list of `importedOnly` check-ins): their access-code items carry it, so an
   * erased person's code item, overwritten, leaves the list with it.
   */
  importedPersonsByEmail: (tenantId: string, token: string, emailKey: string) =>
    `T#${tenantId}#G#${token}#GUEST#${emailKey}`,
  /**
   * GSI2 partition of a gallery's persons with one email address, by a hash of the address (case
   * and surrounding space ignored): every person item with an address carries it, so that
   * sendPhotoLink finds them without reading the gallery's persons.
   */
  personsByEmail: (tenantId: string, token: string, emailKey: string) => `T#${tenantId}#G#${token}#ADDR#${emailKey}`,
  /** One item per access code in use: its own partition, so code writes never contend. */
  accessCode: (tenantId: string, token: string, code: string) => ({
    pk: `T#${tenantId}#G#${token}#CODE#${code}`,
    sk: 'CODE',
  }),
} as const;

/** The gallery of a person item, from its partition key (personKeys.person); undefined for any other key. */
export function galleryOfPersonItem(pk: string): { tenantId: string; token: string } | undefined {
  const match = /^T#([^#]+)#G#([^#]+)#PERSONS$/.exec(pk);
  return match ? { tenantId: match[1]!, token: match[2]! } : undefined;
}
