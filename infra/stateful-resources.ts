/**
 * The resources of the stack that hold data or work (the table, the buckets, the KMS key, the
 * secrets, the queues), pinned by logical ID, and the two checks that keep an upgrade from losing
 * them (docs/deployment.md#upgrading): CloudFormation knows a resource by its logical ID only, so
 * a construct renamed by a refactor is a new resource to it, and the old one is deleted (or, where
 * retained, left behind while the stack points at a new, empty one).
 */

/** A template as `cdk synth` writes it and CloudFormation's GetTemplate returns it. */
export interface StackTemplate {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** What a pinned resource holds, for the message that says why it must keep its logical ID. */
export interface PinnedResource {
  type: string;
  holds: string;
  /** Present only with an option of the stack (the API front's secret); absent otherwise, and fine. */
  optional?: boolean;
}

/**
 * The types that hold data or work, with the properties whose change makes CloudFormation replace
 * the resource (their "Update requires: Replacement" in the CloudFormation reference).
 */
export const STATEFUL_TYPES: Readonly<Record<string, readonly string[]>> = {
  'AWS::DynamoDB::Table': ['TableName', 'KeySchema', 'LocalSecondaryIndexes'],
  'AWS::S3::Bucket': ['BucketName'],
  'AWS::KMS::Key': ['KeySpec', 'KeyUsage', 'MultiRegion'],
  'AWS::SecretsManager::Secret': ['Name'],
  'AWS::SQS::Queue': ['QueueName', 'FifoQueue'],
};

const queue = (holds: string): PinnedResource => ({ type: 'AWS::SQS::Queue', holds });
const secret = (holds: string, optional = false): PinnedResource => ({
  type: 'AWS::SecretsManager::Secret',
  holds,
  optional,
});

/** Every stateful resource of GroupShootStack by the logical ID it was first deployed with. */
export const PINNED_LOGICAL_IDS: Readonly<Record<string, PinnedResource>> = {
  TableCD117FA1: { type: 'AWS::DynamoDB::Table', holds: 'every tenant, gallery, person, order and event' },
  MediaMediaBucket84A4FA0D: { type: 'AWS::S3::Bucket', holds: 'selfies and photos' },
  MediaCheckinPageBucket26461DF6: { type: 'AWS::S3::Bucket', holds: 'the check-in page' },
  MediaAccessLogsD396FE12: { type: 'AWS::S3::Bucket', holds: 'the access logs of the buckets and CDNs' },
  AlarmsKey3C2381B3: { type: 'AWS::KMS::Key', holds: 'the key of the alarm topic' },
  StripeSecretKeyA7F6217B: secret('the Stripe secret key'),
  StripeWebhookSecretFCDDBC6A: secret("the Stripe webhook's signing secret"),
  PhotoSigningKeyE35E5F6D: secret('the private key that signs photo URLs'),
  WebhookSealingKey9206B410: secret("the key that opens the tenants' webhook secrets in the table"),
  PhotoLinkKeyC0108894: secret('the key of every photo link and invitation sent'),
  ApiFrontOriginVerifySecretEACCE3B7: secret("the API front's origin-verify value", true),
  WebhooksQueueCBC86013: queue('webhook deliveries waiting or being retried'),
  WebhooksDeadLetterQueue1C65998B: queue('webhook deliveries that failed'),
  WebhooksDispatchFailuresQueue8EBFD2E3: queue("the dispatcher's failed stream records"),
  IngestFailuresQueue1F67796F: queue('S3 events of photos whose ingest failed'),
  PhotoNoticesFailuresQueueD5F455D8: queue("the photo-ready emails' failed stream records"),
  ReferenceFacesFailureQueue90D9287E: queue("the reference faces' failed stream records"),
  RetentionPlanQueueC8838E85: queue("the retention run's plan"),
  RetentionQueue0AEC2C72: queue('galleries waiting for the retention run'),
  RetentionDeadLetterQueue23CBC72B: queue('galleries the retention run failed'),
  HrExportsQueue29476C93: queue('HR exports waiting to be built'),
  HrExportsDeadLetterQueue1619FEFE: queue('HR exports that failed'),
};

const WHY =
  'CloudFormation knows a resource by its logical ID: under a new one it creates a new, empty resource and deletes the old one (a retained one is left behind, and the stack points at the new one). Keep the construct ID (stack.renameLogicalId can map a new one back), or follow docs/deployment.md#upgrading';

/**
 * What breaks the pins in a synthesized template: a pinned resource missing or of another type,
 * and a stateful resource that is not pinned (a new one, or a pinned one renamed). Empty when the
 * template keeps every stateful resource where the deployed stacks have it.
 */
export function pinProblems(template: StackTemplate): string[] {
  const resources = template.Resources ?? {};
  const problems: string[] = [];
  for (const [id, pinned] of Object.entries(PINNED_LOGICAL_IDS)) {
    const resource = resources[id];
    if (!resource && pinned.optional) continue;
    if (!resource) problems.push(`${id} (${pinned.type}, ${pinned.holds}) is no longer in the template. ${WHY}.`);
    else if (resource.Type !== pinned.type)
      problems.push(
        `${id} (${pinned.holds}) is a ${resource.Type} now, not a ${pinned.type}: it would be replaced. ${WHY}.`,
      );
  }
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type in STATEFUL_TYPES && !(id in PINNED_LOGICAL_IDS))
      problems.push(
        `${id} (${resource.Type}) holds data or work but is not pinned in infra/stateful-resources.ts: a new resource is pinned there with what it holds; a renamed one keeps its old logical ID. ${WHY}.`,
      );
  }
  return problems;
}

/** A stateful resource of the deployed template that the new one would replace or delete. */
export interface StatefulChange {
  logicalId: string;
  type: string;
  change: 'deleted' | 'replaced';
  reason: string;
}

/**
 * The stateful resources of `deployed` that `next` deletes (their logical ID is gone) or replaces
 * (another type, or a change of a property that requires replacement). Compared on the templates
 * alone, before anything is sent to CloudFormation.
 */
export function statefulChanges(deployed: StackTemplate, next: StackTemplate): StatefulChange[] {
  const changes: StatefulChange[] = [];
  const after = next.Resources ?? {};
  for (const [logicalId, before] of Object.entries(deployed.Resources ?? {})) {
    const replacing = STATEFUL_TYPES[before.Type];
    if (!replacing) continue;
    const now = after[logicalId];
    const entry = { logicalId, type: before.Type };
    if (!now) {
      changes.push({ ...entry, change: 'deleted', reason: 'its logical ID is not in the new template' });
    } else if (now.Type !== before.Type) {
      changes.push({ ...entry, change: 'replaced', reason: `its type changes to ${now.Type}` });
    } else {
      const changed = replacing.filter(
        (property) => JSON.stringify(before.Properties?.[property]) !== JSON.stringify(now.Properties?.[property]),
      );
      if (changed.length > 0)
        changes.push({
          ...entry,
          change: 'replaced',
          reason: `${changed.join(', ')} changes, which needs a new resource`,
        });
    }
  }
  return changes;
}

/** The changes the operator did not allow by name (`--allow-replace ID`); the deploy stops when any is left. */
export function refusedChanges(changes: readonly StatefulChange[], allowed: readonly string[]): StatefulChange[] {
  return changes.filter((change) => !allowed.includes(change.logicalId));
}
