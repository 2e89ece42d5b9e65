/**
 * The key scheme of the single table, which every feature follows: a gallery's partitions start
 * with its tenant and token (`T#<tenantId>#G#<token>`), a tenant's with `T#<tenantId>`. Each
 * feature declares the keys of its own items in its `store/keys.ts`; docs/data-model.md
 * documents the access pattern each key serves.
 */

/** What every partition key of one gallery starts with. */
export function galleryPartitionPrefix(tenantId: string, token: string): string {
  return `T#${tenantId}#G#${token}`;
}
