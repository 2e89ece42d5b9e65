/**
 * The shape of the single table, shared by the local stack (CreateTable) and the CDK stack,
 * so both create the same keys, index and TTL attribute.
 */
export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
} as const;

/** GSI1 serves the secondary access patterns (see docs/data-model.md). */
export const GSI1 = {
  indexName: 'gsi1',
  partitionKey: 'gsi1pk',
  sortKey: 'gsi1sk',
} as const;

/**
 * GSI2 serves look-ups of persons by email address (docs/data-model.md#the-address-index): sparse,
 * only person items with an address carry its keys, and it projects only what those look-ups read.
 */
export const GSI2 = {
  indexName: 'gsi2',
  partitionKey: 'gsi2pk',
  sortKey: 'gsi2sk',
  projectedAttributes: ['personId', 'name', 'email', 'language'],
} as const;

/** Items carrying this attribute (Unix seconds) are removed by DynamoDB TTL once it passes. */
export const TTL_ATTRIBUTE = 'expiresAt';
