import type { Template } from 'aws-cdk-lib/assertions';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { keys } from '../support/table-keys';
import { FUNCTION_PERMISSIONS } from '../../infra/function-permissions';
import {
  EVENT_DISPATCH_HANDLER,
  PHOTO_INGEST_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
  RETENTION_PLANNER_HANDLER,
  RETENTION_WORKER_HANDLER,
  WEBHOOK_DELIVERY_HANDLER,
} from '#lib/http/handlers';
import { type KeyAccess, PARTITIONS } from '../../infra/table-access';
import { type Statement, type TableRequest, allows, asText, roleStatements, stringLike } from './iam-evaluation';
import { unbundledStack } from './unbundled-stack';

const TENANT_ID = 'ten_01j9zk3v6q8x4m2n7p5r1s0t9w';
const TOKEN = 'abcdefghjkmnpqrs';
const PERSON_ID = 'per_01j9zk3v6q8x4m2n7p5r1s0t9x';
const HASH = '3f'.repeat(32);
const SUBSCRIPTION_ID = 'whsub_01j9zk3v6q8x4m2n7p5r1s0t9z';

type Sample = { on: 'table' | 'gsi1' | 'gsi2'; key: string };

/** One partition key of every kind the table and GSI1 hold, built as the code builds them. */
const SAMPLES: Record<string, Sample> = {
  'tenant profile and plan': { on: 'table', key: keys.tenant('acme-photo').pk },
  "tenant's ID pointer": { on: 'table', key: keys.tenantIdPointer(TENANT_ID).pk },
  'API key': { on: 'table', key: keys.apiKey(HASH).pk },
  'connected account mapping': { on: 'table', key: keys.stripeAccount('acct_1PqRsT').pk },
  'Stripe event handled': { on: 'table', key: keys.stripeEvent('evt_1PqRsTuV').pk },
  "API key's rate-limit counter": { on: 'table', key: keys.rateLimit('key_01j9zk3v6q8x4m2n7p5r1s0t9y').pk },
  "public client's rate-limit counter": {
    on: 'table',
    key: keys.rateLimit(keys.publicRateLimitCounter(TENANT_ID, TOKEN, 'reads', '203.0.113.7')).pk,
  },
  "tenant's share of check-ins": { on: 'table', key: keys.rateLimit(keys.tenantShareCounter(TENANT_ID)).pk },
  "Stripe platform account's limit": { on: 'table', key: keys.rateLimit(keys.stripePlatformCounter()).pk },
  'gallery pointers': { on: 'table', key: keys.galleryPointersOfToken(TOKEN) },
  'gallery configuration': { on: 'table', key: keys.galleryPartition(TENANT_ID, TOKEN) },
  persons: { on: 'table', key: keys.personsOfGallery(TENANT_ID, TOKEN) },
  'access code': { on: 'table', key: keys.accessCode(TENANT_ID, TOKEN, 'K7QX').pk },
  "email's free check-ins": { on: 'table', key: keys.emailCheckins(TENANT_ID, TOKEN, HASH).pk },
  "person's photos": { on: 'table', key: keys.photosOfPerson(TENANT_ID, TOKEN, PERSON_ID) },
  "gallery's shoot": { on: 'table', key: keys.shootOfGallery(TENANT_ID, TOKEN) },
  "person's shoot index": { on: 'table', key: keys.shootIndexOfPerson(TENANT_ID, TOKEN, PERSON_ID) },
  "shoot photo's pointer": { on: 'table', key: keys.shootPhotoPointer(TENANT_ID, TOKEN, 'pho_7c1d2e').pk },
  orders: { on: 'table', key: keys.ordersOfGallery(TENANT_ID, TOKEN) },
  "email's live reservation": { on: 'table', key: keys.liveReservationOfEmail(TENANT_ID, TOKEN, HASH).pk },
  "participant's order pointers": {
    on: 'table',
    key: keys.orderOfParticipant(TENANT_ID, TOKEN, keys.participantByPersonId(PERSON_ID), 'ord_1').pk,
  },
  'status or retry token': { on: 'table', key: keys.checkoutToken(HASH).pk },
  'Idempotency-Key record': { on: 'table', key: keys.idempotencyKey(HASH).pk },
  "gallery's events": { on: 'table', key: keys.eventsOfGallery(TENANT_ID, TOKEN) },
  "gallery's reference faces": { on: 'table', key: keys.referenceFacesOfGallery(TENANT_ID, TOKEN) },
  "gallery's HR exports": { on: 'table', key: keys.hrExportsOfGallery(TENANT_ID, TOKEN) },
  "person's HR export holdings": { on: 'table', key: keys.hrExportHoldingsOfPerson(TENANT_ID, TOKEN, PERSON_ID) },
  "HR export build's file names": {
    on: 'table',
    key: keys.hrExportFileNamesOfBuild(TENANT_ID, TOKEN, '4f1c2b8e-6a0d-4c3e-9f7a-2d5b8c1e0a93'),
  },
  "tenant's webhook subscriptions": { on: 'table', key: keys.webhookSubscriptionsOfTenant(TENANT_ID) },
  "subscription's deliveries": { on: 'table', key: keys.deliveriesOfSubscription(TENANT_ID, SUBSCRIPTION_ID) },
  "tenant's webhook attempt slots": { on: 'table', key: keys.webhookAttemptSlotsOfTenant(TENANT_ID) },
  'another partition': { on: 'table', key: 'another-partition' },
  'tenant directory (GSI1)': { on: 'gsi1', key: keys.tenantDirectory() },
  "tenant's API keys (GSI1)": { on: 'gsi1', key: keys.apiKeysOfTenant(TENANT_ID) },
  "tenant's galleries (GSI1)": { on: 'gsi1', key: keys.galleriesOfTenant(TENANT_ID) },
  'persons by employee ID (GSI1)': { on: 'gsi1', key: keys.personsByEmployeeId(TENANT_ID, TOKEN, 'E-1001') },
  'guest list (GSI1)': { on: 'gsi1', key: keys.importedPersonsByEmail(TENANT_ID, TOKEN, 'aGFzaG9mYWRkcmVzcw') },
  'pending orders (GSI1)': { on: 'gsi1', key: keys.pendingOrders() },
  "person's events (GSI1)": { on: 'gsi1', key: keys.eventsOfPerson(TENANT_ID, TOKEN, PERSON_ID) },
  "gallery's Idempotency-Key records (GSI1)": { on: 'gsi1', key: keys.idempotencyRecordsOfGallery(TENANT_ID, TOKEN) },
  'another index partition': { on: 'gsi1', key: 'SOMETHING' },
  'persons by address (GSI2)': { on: 'gsi2', key: keys.personsByEmail(TENANT_ID, TOKEN, 'aGFzaG9mYWRkcmVzcw') },
  'another partition of GSI2': { on: 'gsi2', key: 'SOMETHING' },
};

/** The functions the table's stream starts. */
const STREAM_READERS = [EVENT_DISPATCH_HANDLER, PHOTO_NOTICE_HANDLER, REFERENCE_FACE_HANDLER].sort();

const ACTIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
];
const dynamodb = (action: string) => `dynamodb:${action}`;

/** Tenant-admin items (docs/deployment.md#tenant-admin-items), and the webhook's own Stripe events. */
const TENANT_ADMIN = [
  'API key',
  "tenant's API keys (GSI1)",
  'tenant directory (GSI1)',
  'connected account mapping',
  'Stripe event handled',
];
const PUBLIC_FUNCTIONS = ['checkin/get-checkin-info', 'checkin/post-group-shoot'];
/** The functions whose changes are reported as events (STORE_PERSONS): each puts its events in the same transaction. */
const EVENT_WRITERS = [
  'checkin/post-group-shoot',
  'persons/import-persons',
  'payments/stripe-webhook',
  'payments/sweep-reservations',
];

/**
 * Reading the table's stream (the dispatcher's event source): DescribeStream, GetRecords and
 * GetShardIterator on the stream, and ListStreams, which has no resource. Stream reads name no
 * item, so no leading keys bound them; which functions have them is checked on its own.
 */
function readsStreamOnly(statement: Statement, tableArn: string): boolean {
  const actions = [statement.Action].flat();
  const onStream = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
  return [statement.Resource]
    .flat()
    .map(asText)
    .every((resource) =>
      resource === '*'
        ? actions.every((action) => action === 'dynamodb:ListStreams')
        : resource === tableArn.replace(/\.Arn\}$/, '.StreamArn}') &&
          actions.every((action) => onStream.includes(action)),
    );
}

/** Whether the function's declaration lets it do `action` to the sample (grants limited to attributes aside). */
function declared(handler: string, action: string, sample: Sample): boolean {
  return FUNCTION_PERMISSIONS[handler]!.table.some(
    (access: KeyAccess) =>
      access.on === sample.on &&
      !access.attributes &&
      access.actions.includes(action as never) &&
      access.partitions.some((pattern) => stringLike(pattern, sample.key)),
  );
}

/**
 * Everything wrong with a function's DynamoDB grants: a statement not bounded by present leading
 * keys, a request without a partition key that passes, and every action on a sample partition
 * that its policy and its declaration answer differently.
 */
function violations(template: Template, functionId: string, handler: string): string[] {
  const statements = roleStatements(template, functionId);
  const [tableId] = Object.keys(template.findResources('AWS::DynamoDB::Table'));
  const tableArn = `\${${tableId}.Arn}`;
  const found: string[] = [];
  for (const statement of statements) {
    if (
      ![statement.Action]
        .flat()
        .some((action) => stringLike(action, 'dynamodb:GetItem') || action.startsWith('dynamodb:'))
    )
      continue;
    if (readsStreamOnly(statement, tableArn)) continue;
    const bound = statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    if (!bound || statement.Condition?.Null?.['dynamodb:LeadingKeys'] !== 'false') {
      found.push(
        `not bounded by leading keys: ${JSON.stringify(statement.Action)} on ${[statement.Resource].flat().map(asText).join(', ')}`,
      );
    }
  }
  for (const action of ACTIONS) {
    for (const on of ['table', 'gsi1', 'gsi2'] as const) {
      if (allows(statements, { action: dynamodb(action), on, leadingKeys: [] }, tableArn))
        found.push(`${action} on the ${on} without a partition key`);
    }
    for (const [name, sample] of Object.entries(SAMPLES)) {
      const granted = allows(
        statements,
        { action: dynamodb(action), on: sample.on, leadingKeys: [sample.key] },
        tableArn,
      );
      if (granted !== declared(handler, action, sample))
        found.push(`${action} on ${name}: ${granted ? 'granted, not declared' : 'declared, not granted'}`);
    }
  }
  return found;
}

let built: ReturnType<typeof unbundledStack>;
/** What the function's role allows for this request. */
let can: (
  handler: string,
  request: Omit<TableRequest, 'action' | 'leadingKeys'> & { action: string; key: string },
) => boolean;

beforeAll(() => {
  // Prepare: the stack as deployed by default, not bundled (the code is not under test here).
  built = unbundledStack();
  const [tableId] = Object.keys(built.template.findResources('AWS::DynamoDB::Table'));
  can = (handler, { action, key, ...request }) =>
    allows(
      roleStatements(built.template, built.functionIds.get(handler)!),
      { ...request, action: dynamodb(action), leadingKeys: [key] },
      `\${${tableId}.Arn}`,
    );
}, 60_000);

describe('table access of every function', () => {
  it('covers every declared partition pattern with a sample key, so the checks below see each one', () => {
    const patterns = Object.values(FUNCTION_PERMISSIONS).flatMap((permissions) =>
      permissions.table.flatMap((access) => access.partitions.map((pattern) => [access.on, pattern] as const)),
    );
    const unseen = patterns.filter(
      ([on, pattern]) => !Object.values(SAMPLES).some((sample) => sample.on === on && stringLike(pattern, sample.key)),
    );
    expect(unseen).toEqual([]);
  });

  it.each(Object.keys(FUNCTION_PERMISSIONS))(
    'lets %s reach exactly the partitions it declares, each bounded by dynamodb:LeadingKeys',
    (handler) => {
      expect(violations(built.template, built.functionIds.get(handler)!, handler)).toEqual([]);
    },
  );

  it('catches a table-wide grant: readWrite on the whole table for the check-in function', () => {
    // Act: the grant the stack gave before, added back to one function.
    const widened = unbundledStack({}, (stack) => {
      (stack.node.findChild('Table') as Table).grantReadWriteData(stack.functions.get('checkin/post-group-shoot')!);
    });
    // Assess
    const found = violations(
      widened.template,
      widened.functionIds.get('checkin/post-group-shoot')!,
      'checkin/post-group-shoot',
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^not bounded by leading keys/),
        'Scan on the table without a partition key',
        'GetItem on API key: granted, not declared',
      ]),
    );
  }, 60_000);

  it('gives the gallery configuration a partition no other gallery partition starts with', () => {
    const others = Object.entries(SAMPLES).filter(
      ([name, sample]) => sample.on === 'table' && name !== 'gallery configuration',
    );
    expect(
      others.filter(([, sample]) => stringLike(PARTITIONS.galleryConfig, sample.key)).map(([name]) => name),
    ).toEqual([]);
    expect(
      others
        .filter(([, sample]) => stringLike(PARTITIONS.galleryData, sample.key))
        .map(([name]) => name)
        .sort(),
    ).toEqual(
      [
        'persons',
        'access code',
        "email's free check-ins",
        "person's photos",
        'orders',
        "email's live reservation",
        "participant's order pointers",
        "gallery's events",
        "gallery's shoot",
        "person's shoot index",
        "shoot photo's pointer",
        "gallery's reference faces",
        "gallery's HR exports",
        "person's HR export holdings",
        "HR export build's file names",
      ].sort(),
    );
  });

  it("keeps events, webhook subscriptions and deliveries apart: each is reached by its own pattern only (events also by the gallery's)", () => {
    const reaching = (name: string) =>
      Object.entries(PARTITIONS)
        .filter(([, pattern]) => stringLike(pattern, SAMPLES[name]!.key))
        .map(([kind]) => kind)
        .sort();
    expect(reaching("gallery's events")).toEqual(['events', 'galleryData']);
    expect(reaching("tenant's webhook subscriptions")).toEqual(['webhookSubscriptions']);
    expect(reaching("subscription's deliveries")).toEqual(['webhookDeliveries']);
    expect(reaching("tenant's webhook attempt slots")).toEqual(['webhookAttemptSlots']);
  });
});

describe.each(PUBLIC_FUNCTIONS)('the public function %s', (handler) => {
  it.each(TENANT_ADMIN)('can neither read nor write the %s', (name) => {
    const sample = SAMPLES[name]!;
    const granted = ACTIONS.filter((action) =>
      can(handler, { action, on: sample.on, key: sample.key, attributes: ['pk', 'sk', 'stripeReadiness'] }),
    );
    expect(granted).toEqual([]);
  });

  it('can read the tenant profile and plan, but not put, delete or change anything of them except the cached Stripe readiness', () => {
    const tenant = SAMPLES['tenant profile and plan']!.key;
    const write = (action: string, attributes?: string[], returnValues?: string) =>
      can(handler, { action, on: 'table', key: tenant, attributes, returnValues });
    expect(can(handler, { action: 'Query', on: 'table', key: tenant })).toBe(true);
    expect(['PutItem', 'DeleteItem', 'BatchWriteItem'].filter((action) => write(action))).toEqual([]);
    for (const attribute of [
      'stripeAccountId',
      'paymentAccessApproved',
      'platformFeeBps',
      'tier',
      'allowedReturnOrigins',
      'tenantId',
    ]) {
      expect([attribute, write('UpdateItem', ['pk', 'sk', attribute])]).toEqual([attribute, false]);
      expect([attribute, write('UpdateItem', ['pk', 'sk', 'stripeReadiness', attribute])]).toEqual([attribute, false]);
    }
    expect(write('UpdateItem')).toBe(false);
    expect(write('UpdateItem', ['pk', 'sk', 'stripeReadiness'], 'ALL_NEW')).toBe(false);
    // recordStripeReadiness: a paid check-in caches whether the connected account can take charges.
    expect(write('UpdateItem', ['pk', 'sk', 'stripeReadiness'])).toBe(handler === 'checkin/post-group-shoot');
  });

  it("reads no person, photo, access code or email's count, except those the participant names (myPhotos, sendPhotoLink, photosByLink, importedOnly check-ins) and the shoot a participant's face leaves (withdrawFaceConsent)", () => {
    const personal = [
      'persons',
      "person's photos",
      'access code',
      "email's free check-ins",
      'persons by employee ID (GSI1)',
      'guest list (GSI1)',
      'persons by address (GSI2)',
      "gallery's shoot",
      "person's shoot index",
      "shoot photo's pointer",
    ];
    const reads = personal.flatMap((name) =>
      ['GetItem', 'BatchGetItem', 'Query']
        .filter((action) => can(handler, { action, on: SAMPLES[name]!.on, key: SAMPLES[name]!.key }))
        .map((action) => `${action} ${name}`),
    );
    // myPhotos: the code item names the person, the person's email or employee ID is the second factor;
    // sendPhotoLink finds the persons with an address by its hash (GSI2), never reading the gallery's persons;
    // importedOnly check-ins: the guest list names the imported persons with the address, and the invitation
    // the person it was made for, read by key; an employee ID names nobody (colleagues know it);
    // withdrawFaceConsent: the participant who proved who they are leaves the face candidates of the gallery's
    // shoot photos, which their shoot index names (each photo read by key, again when a placement changed it meanwhile).
    expect(reads).toEqual(
      handler === 'checkin/post-group-shoot'
        ? [
            'GetItem persons',
            "Query person's photos",
            'GetItem access code',
            'Query guest list (GSI1)',
            'Query persons by address (GSI2)',
            "GetItem gallery's shoot",
            "Query gallery's shoot",
            "Query person's shoot index",
          ]
        : [],
    );
  });
});

describe('what the public functions need', () => {
  it("lets the check-in info function read only its tenant, the gallery's pointers and configuration, and take from public counters", () => {
    const granted = Object.entries(SAMPLES).flatMap(([name, sample]) =>
      ACTIONS.filter((action) => can('checkin/get-checkin-info', { action, on: sample.on, key: sample.key })).map(
        (action) => `${action} ${name}`,
      ),
    );
    expect(granted.sort()).toEqual([
      'Query gallery configuration',
      'Query gallery pointers',
      'Query tenant profile and plan',
      "UpdateItem public client's rate-limit counter",
    ]);
  });

  it('lets only the check-in info function reach gallery pointers, and only to read them: the admin CLI writes them', () => {
    const pointers = SAMPLES['gallery pointers']!.key;
    const reaching = Object.keys(FUNCTION_PERMISSIONS).flatMap((handler) =>
      ACTIONS.filter((action) => can(handler, { action, on: 'table', key: pointers })).map(
        (action) => `${handler} ${action}`,
      ),
    );
    expect(reaching).toEqual(['checkin/get-checkin-info Query']);
  });

  it("lets the check-in function store persons and reservations, and complete imported persons, deleting none (but a withdrawing participant's reference face)", () => {
    const handler = 'checkin/post-group-shoot';
    const on = (name: string, action: string) => can(handler, { action, on: 'table', key: SAMPLES[name]!.key });
    expect([
      on('persons', 'PutItem'),
      on('access code', 'PutItem'),
      on('orders', 'PutItem'),
      on('status or retry token', 'GetItem'),
    ]).toEqual([true, true, true, true]);
    // importedOnly: claiming and completing the imported person, and its code item's place on the guest list.
    expect([on('persons', 'UpdateItem'), on('access code', 'UpdateItem')]).toEqual([true, true]);
    expect([
      on('persons', 'DeleteItem'),
      on('access code', 'DeleteItem'),
      on("API key's rate-limit counter", 'UpdateItem'),
    ]).toEqual([false, false, false]);
    // withdrawFaceConsent: the participant's reference face deleted, their face candidates taken off shoot photos;
    // never a shoot item deleted or put; the index entries that name them as a candidate deleted with the change.
    expect([
      on("gallery's reference faces", 'DeleteItem'),
      on("gallery's shoot", 'UpdateItem'),
      on("gallery's shoot", 'DeleteItem'),
      on("gallery's shoot", 'PutItem'),
      on("person's shoot index", 'DeleteItem'),
      on("person's shoot index", 'PutItem'),
      on("shoot photo's pointer", 'GetItem'),
    ]).toEqual([true, true, false, false, true, false, false]);
  });
});

describe('events and webhooks', () => {
  /** Every action the function's role allows on a sample partition, as `<action> <sample>`. */
  const grantedTo = (handler: string) =>
    Object.entries(SAMPLES).flatMap(([name, sample]) =>
      ACTIONS.filter((action) => can(handler, { action, on: sample.on, key: sample.key })).map(
        (action) => `${action} ${name}`,
      ),
    );

  it("lets the dispatcher find the tenant's subscriptions and record deliveries, and reach no gallery data", () => {
    expect(grantedTo(EVENT_DISPATCH_HANDLER).sort()).toEqual(
      [
        "GetItem subscription's deliveries",
        "PutItem subscription's deliveries",
        "Query tenant's webhook subscriptions",
        "UpdateItem subscription's deliveries",
      ].sort(),
    );
    expect(can(EVENT_DISPATCH_HANDLER, { action: 'GetItem', on: 'table', key: SAMPLES.persons!.key })).toBe(false);
  });

  it("lets the delivery function read the event, read and update subscription and delivery, take and give back the tenant's attempt slots, and write no gallery data", () => {
    expect(grantedTo(WEBHOOK_DELIVERY_HANDLER).sort()).toEqual(
      [
        "GetItem gallery's events",
        "GetItem tenant's webhook subscriptions",
        "UpdateItem tenant's webhook subscriptions",
        "GetItem subscription's deliveries",
        "UpdateItem subscription's deliveries",
        "Query tenant's webhook attempt slots",
        "PutItem tenant's webhook attempt slots",
        "DeleteItem tenant's webhook attempt slots",
      ].sort(),
    );
    expect(
      ['PutItem', 'UpdateItem', 'DeleteItem'].filter((action) =>
        can(WEBHOOK_DELIVERY_HANDLER, { action, on: 'table', key: SAMPLES.persons!.key }),
      ),
    ).toEqual([]);
  });

  it('lets no function but the dispatcher and the delivery function reach webhook subscriptions or deliveries', () => {
    const webhookData = [
      "tenant's webhook subscriptions",
      "subscription's deliveries",
      "tenant's webhook attempt slots",
    ];
    const reaching = Object.keys(FUNCTION_PERMISSIONS).filter((handler) =>
      webhookData.some((name) =>
        ACTIONS.some((action) => can(handler, { action, on: 'table', key: SAMPLES[name]!.key })),
      ),
    );
    expect(reaching.sort()).toEqual([WEBHOOK_DELIVERY_HANDLER, EVENT_DISPATCH_HANDLER].sort());
    expect(
      ['GetItem', 'Query'].filter((action) =>
        can('checkin/post-group-shoot', { action, on: 'table', key: SAMPLES["tenant's webhook subscriptions"]!.key }),
      ),
    ).toEqual([]);
  });

  it.each(EVENT_WRITERS)('lets %s put events, but not read, change or delete them', (handler) => {
    const events = SAMPLES["gallery's events"]!.key;
    expect(ACTIONS.filter((action) => can(handler, { action, on: 'table', key: events }))).toEqual(['PutItem']);
  });

  it("lets the photo ingest add photos to a person's photos.assigned or the gallery's photos.withheld event (an upsert), and nothing else with events", () => {
    const events = SAMPLES["gallery's events"]!.key;
    expect(
      ACTIONS.filter((action) => can('photos/sorting/ingest-photo', { action, on: 'table', key: events })),
    ).toEqual(['UpdateItem']);
  });

  it("lets the retention run find and delete a gallery's events (erasure)", () => {
    const events = SAMPLES["gallery's events"]!.key;
    const granted = ACTIONS.filter((action) => can(RETENTION_WORKER_HANDLER, { action, on: 'table', key: events }));
    expect(granted).toEqual(expect.arrayContaining(['Query', 'DeleteItem', 'BatchWriteItem']));
  });

  it("splits the retention run: the planner reads the tenant directory and tenants' galleries and no gallery's data, the worker the reverse", () => {
    const reached = (handler: string) =>
      Object.entries(SAMPLES)
        .filter(([, sample]) => ACTIONS.some((action) => can(handler, { action, on: sample.on, key: sample.key })))
        .map(([name]) => name);
    expect(reached(RETENTION_PLANNER_HANDLER).sort()).toEqual(
      ['tenant directory (GSI1)', "tenant's galleries (GSI1)", 'tenant profile and plan'].sort(),
    );
    expect(reached(RETENTION_WORKER_HANDLER)).not.toContain('tenant directory (GSI1)');
    expect(reached(RETENTION_WORKER_HANDLER)).not.toContain("tenant's galleries (GSI1)");
    expect(reached(RETENTION_WORKER_HANDLER)).toEqual(
      expect.arrayContaining(['persons', 'orders', "gallery's Idempotency-Key records (GSI1)"]),
    );
  });

  it("lets only the dispatcher, the photo-ready email function and the reference-face function read the table's stream", () => {
    const [tableId] = Object.keys(built.template.findResources('AWS::DynamoDB::Table'));
    const readers = [...built.functionIds].filter(([, functionId]) =>
      roleStatements(built.template, functionId).some((statement) =>
        [statement.Action].flat().includes('dynamodb:GetRecords'),
      ),
    );
    expect(readers.map(([handler]) => handler).sort()).toEqual(STREAM_READERS);
    for (const handler of STREAM_READERS) {
      const streamStatements = roleStatements(built.template, built.functionIds.get(handler)!).filter((statement) =>
        readsStreamOnly(statement, `\${${tableId}.Arn}`),
      );
      expect(streamStatements.flatMap((statement) => [statement.Action].flat()).sort()).toEqual(
        ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'].sort(),
      );
    }
  });
});

describe('reference faces', () => {
  const faces = SAMPLES["gallery's reference faces"]!.key;
  const grantedOn = (handler: string, key: string) =>
    ACTIONS.filter((action) => can(handler, { action, on: 'table', key }));

  it("lets only the reference-face function, the photo ingest, the retention run and a participant's withdrawal reach them", () => {
    const reaching = Object.keys(FUNCTION_PERMISSIONS).filter((handler) => grantedOn(handler, faces).length > 0);
    expect(reaching.sort()).toEqual(
      [REFERENCE_FACE_HANDLER, PHOTO_INGEST_HANDLER, RETENTION_WORKER_HANDLER, 'checkin/post-group-shoot'].sort(),
    );
  });

  it('lets the check-in function only see whether a participant has one and delete it (withdrawFaceConsent), never make one', () => {
    expect(grantedOn('checkin/post-group-shoot', faces)).toEqual(['GetItem', 'DeleteItem']);
  });

  it('lets the reference-face function read and put them, the ingest read them and confirm or reject them, and the retention run find and delete them', () => {
    expect(grantedOn(REFERENCE_FACE_HANDLER, faces)).toEqual(['GetItem', 'PutItem']);
    expect(grantedOn(PHOTO_INGEST_HANDLER, faces)).toEqual(['GetItem', 'Query', 'UpdateItem']);
    expect(grantedOn(RETENTION_WORKER_HANDLER, faces)).toEqual(
      expect.arrayContaining(['Query', 'DeleteItem', 'BatchWriteItem']),
    );
  });

  it("lets the reference-face function check a person's consent in its transaction, and change no person", () => {
    expect(grantedOn(REFERENCE_FACE_HANDLER, SAMPLES.persons!.key)).toEqual(['GetItem', 'ConditionCheckItem']);
  });

  it("lets the photo ingest check, change and delete the shoot's items as it sorts photos", () => {
    expect(grantedOn(PHOTO_INGEST_HANDLER, SAMPLES["gallery's shoot"]!.key)).toEqual([
      'GetItem',
      'Query',
      'PutItem',
      'UpdateItem',
      'DeleteItem',
      'ConditionCheckItem',
    ]);
  });

  it("lets the photo ingest write the persons' shoot index and the photo pointers with the shoot's items, reading neither", () => {
    expect(grantedOn(PHOTO_INGEST_HANDLER, SAMPLES["person's shoot index"]!.key)).toEqual(['PutItem', 'DeleteItem']);
    expect(grantedOn(PHOTO_INGEST_HANDLER, SAMPLES["shoot photo's pointer"]!.key)).toEqual(['PutItem', 'DeleteItem']);
  });
});
