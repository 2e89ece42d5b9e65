import { isPersonIdShaped } from '#lib/platform/identifiers';

/**
 * Cursors are opaque to callers: base64url of a version tag and the last person ID of the
 * page. They carry no table keys, so a cursor cannot point a query at another partition.
 */
export function encodePersonCursor(lastPersonId: string): string {
  return Buffer.from(`p1:${lastPersonId}`, 'utf8').toString('base64url');
}

/** The person ID a cursor continues after; undefined when it is not a cursor of ours. */
export function decodePersonCursor(cursor: string): string | undefined {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const personId = decoded.startsWith('p1:') ? decoded.slice(3) : '';
  return isPersonIdShaped(personId) ? personId : undefined;
}

export const PERSONS_PAGE = { defaultLimit: 100, maxLimit: 500 } as const;
