/**
 * The counters of free check-ins per email address.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
export const checkinKeys = {
  /** How often one email address checked in to a gallery for free, by a hash of the address: a partition of its own. */
  emailCheckins: (tenantId: string, token: string, emailKey: string) => ({
    pk: `T#${tenantId}#G#${token}#EMAIL#${emailKey}`,
    sk: 'CHECKINS',
  }),
} as const;
