import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { GSI1, GSI2, TABLE_KEYS, TTL_ATTRIBUTE } from '../lib/platform/table/table-definition';

/**
 * The single table (docs/data-model.md): on demand, point-in-time recovery at its default
 * window of 35 days (`recoveryPeriodInDays` shortens it), protected from deletion and kept when
 * the stack goes, TTL on `expiresAt`, GSI1, GSI2 (persons by address), and a stream of new images for the webhook dispatcher.
 */
export function serviceTable(scope: Construct): Table {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: TABLE_KEYS.partitionKey, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEYS.sortKey, type: AttributeType.STRING },
    billingMode: BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    timeToLiveAttribute: TTL_ATTRIBUTE,
    // New items of the event outbox, and replay requests, start the dispatcher (infra/webhook-delivery.ts).
    stream: StreamViewType.NEW_IMAGE,
    encryption: TableEncryption.AWS_MANAGED,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  table.addGlobalSecondaryIndex({
    indexName: GSI1.indexName,
    partitionKey: { name: GSI1.partitionKey, type: AttributeType.STRING },
    sortKey: { name: GSI1.sortKey, type: AttributeType.STRING },
  });
  // Added to a deployed table by a deployment of its own (DynamoDB creates one index per update);
  // persons stored before it get its keys from `npm run admin -- persons index-addresses`.
  table.addGlobalSecondaryIndex({
    indexName: GSI2.indexName,
    partitionKey: { name: GSI2.partitionKey, type: AttributeType.STRING },
    sortKey: { name: GSI2.sortKey, type: AttributeType.STRING },
    projectionType: ProjectionType.INCLUDE,
    nonKeyAttributes: [...GSI2.projectedAttributes],
  });
  return table;
}
