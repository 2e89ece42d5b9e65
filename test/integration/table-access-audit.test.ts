import { invitationsToHandOut } from '#lib/checkin/invitations';
import type { SQSRecord } from 'aws-lambda';
import { AsyncLocalStorage } from 'node:async_hooks';
import { type IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handler as deliverWebhooks } from '../../functions/webhooks/deliver-webhooks';
import { handler as dispatchEvents } from '../../functions/webhooks/dispatch-events';
import { handler as ingestPhoto } from '../../functions/photos/sorting/ingest-photo';
import { handler as sweepReservations } from '../../functions/payments/sweep-reservations';
import { handler as planRetention } from '../../functions/privacy/plan-retention';
import { handler as applyGalleryRetention } from '../../functions/privacy/apply-gallery-retention';
import { type RetentionMessage, useRetentionQueues } from '#lib/privacy/adapters/retention-queues';
import { handler as sendPhotoNotices } from '../../functions/photos/notices/send-photo-notices';
import { handler as describeReferenceFaces } from '../../functions/faces/describe-reference-faces';
import { handler as buildHrExports } from '../../functions/hr-exports/build-hr-export';
import { type HrExportMessage, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { FUNCTION_PERMISSIONS } from '../../infra/function-permissions';
import {
  EVENT_DISPATCH_HANDLER,
  HR_EXPORT_BUILD_HANDLER,
  PHOTO_NOTICE_HANDLER,
  REFERENCE_FACE_HANDLER,
  RETENTION_PLANNER_HANDLER,
  RETENTION_WORKER_HANDLER,
  WEBHOOK_DELIVERY_HANDLER,
} from '#lib/http/handlers';
import { startChangeStream } from '../../scripts/local/change-stream';
import { LocalDeliveryQueue } from '../../scripts/local/local-delivery-queue';
import { useDeliveryQueue } from '#lib/webhooks/adapters/delivery-queue';
import { resetClock, setClock } from '#lib/platform/clock';
import { db, tableName } from '#lib/platform/table/client';
import { reserveOrder } from '#lib/payments/store/order-transitions';
import { inboxObjectKey, photoObjectKey } from '#lib/platform/media-keys';
import { type Route, UNMATCHED_ROUTE_HANDLER, matchTemplate, pathsOf, routes } from '#lib/http/routes';
import { type CheckinStudio, createPayingStudio } from '../support/checkin-gallery';
import { useLocalApi } from '../support/local-api';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../support/media';
import { pendingOrder } from '../support/orders';
import { useStripeEmulator } from '../support/stripe';
import { admin } from '../support/admin';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { useSesEmulator } from '../support/ses';
import { cardJpeg, portraitJpeg } from '../../scripts/samples/synthetic-shoot';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { keys } from '../support/table-keys';
import { stringLike } from '../infra/iam-evaluation';

import { packagedFaces } from '../../scripts/faces/packaged-faces';

/**
 * The deployed functions may touch only what infra/function-permissions.ts grants them (IAM,
 * bounded by partition key). This runs every function through its paths on DynamoDB Local and
 * records each item action it sends, with the partition it names, to find any the grants lack:
 * those would be refused in AWS. Requests are told apart by the function serving them.
 */
const api = useLocalApi({ stream: true });
const stripe = useStripeEmulator(api);
const ses = useSesEmulator();

type Access = { handler: string; action: string; on: 'table' | 'gsi1' | 'gsi2'; key: string; attributes: string[] };
const serving = new AsyncLocalStorage<string>();
const recorded: Access[] = [];

/** Plain text of a key attribute, marshalled ({ S: … }) or not. */
const text = (value: unknown) => String((value as { S?: string })?.S ?? value);

const KEYWORDS = new Set([
  'SET',
  'REMOVE',
  'ADD',
  'DELETE',
  'AND',
  'OR',
  'NOT',
  'IN',
  'BETWEEN',
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
  'size',
  'if_not_exists',
  'list_append',
]);

/** The attributes an update names (as IAM's dynamodb:Attributes sees them), keys included. */
function attributesOf(input: Record<string, any>): string[] {
  const expressions = [input.UpdateExpression, input.ConditionExpression].filter(Boolean).join(' ');
  const bare = [...expressions.matchAll(/(?<![#:\w])([A-Za-z_]\w*)/g)]
    .map((match) => match[1]!)
    .filter((word) => !KEYWORDS.has(word));
  return [...new Set(['pk', 'sk', ...Object.values<string>(input.ExpressionAttributeNames ?? {}), ...bare])];
}

/** The item actions of one DynamoDB command, each with the partition it names. */
function accessesOf(command: string, input: Record<string, any>): Omit<Access, 'handler'>[] {
  const item = (action: string, key: Record<string, unknown>, part: Record<string, any> = {}) => ({
    action,
    on: 'table' as const,
    key: text(key.pk),
    attributes: attributesOf(part),
  });
  switch (command) {
    case 'GetItemCommand':
      return [item('GetItem', input.Key)];
    case 'PutItemCommand':
      return [item('PutItem', input.Item, input)];
    case 'UpdateItemCommand':
      return [item('UpdateItem', input.Key, input)];
    case 'DeleteItemCommand':
      return [item('DeleteItem', input.Key, input)];
    case 'QueryCommand': {
      const placeholder = /^\s*(?:#?\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression)![1]!;
      return [
        {
          action: 'Query',
          on: (input.IndexName as 'gsi1' | 'gsi2' | undefined) ?? 'table',
          key: text(input.ExpressionAttributeValues[placeholder]),
          attributes: [],
        },
      ];
    }
    case 'TransactWriteItemsCommand':
      return (input.TransactItems as Record<string, any>[]).map((entry) => {
        const [kind, part] = Object.entries(entry)[0]!;
        const action = {
          Put: 'PutItem',
          Update: 'UpdateItem',
          Delete: 'DeleteItem',
          ConditionCheck: 'ConditionCheckItem',
        }[kind]!;
        return item(action, part.Item ?? part.Key, part);
      });
    case 'BatchWriteItemCommand':
      return Object.values(input.RequestItems as Record<string, Record<string, any>[]>)
        .flat()
        .map((request) => item('BatchWriteItem', request.PutRequest?.Item ?? request.DeleteRequest.Key));
    default:
      return [{ action: command, on: 'table', key: '', attributes: [] }];
  }
}

/** Whether the function's grants cover the access. */
function granted({ handler, action, on, key, attributes }: Access): boolean {
  return FUNCTION_PERMISSIONS[handler]!.table.some(
    (access) =>
      access.on === on &&
      access.actions.includes(action as never) &&
      access.partitions.some((pattern) => stringLike(pattern, key)) &&
      (!access.attributes || attributes.every((attribute) => access.attributes!.includes(attribute))),
  );
}

function handlerOf(request: IncomingMessage): string {
  const path = new URL(`http://localhost${request.url ?? '/'}`).pathname.replace(/^\/v1/, '');
  const route = (routes as readonly Route[]).find(
    (candidate) =>
      candidate.method === request.method && pathsOf(candidate).some((template) => matchTemplate(template, path)),
  );
  return route?.handler ?? UNMATCHED_ROUTE_HANDLER;
}

const ownEmit = Object.prototype.hasOwnProperty.call(Server.prototype, 'emit');
const emit = Server.prototype.emit;
beforeAll(() => {
  const apiPort = Number(new URL(api.url).port);
  // Every request to the local API runs as the function that serves it.
  Server.prototype.emit = function (this: Server, event: string, ...args: unknown[]) {
    const send = () =>
      (emit as (this: Server, event: string, ...args: unknown[]) => boolean).call(this, event, ...args);
    if (event === 'request' && (this.address() as AddressInfo | null)?.port === apiPort)
      return serving.run(handlerOf(args[0] as IncomingMessage), send);
    return send();
  } as typeof emit;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const handler = serving.getStore();
      if (handler)
        for (const access of accessesOf(context.commandName!, args.input as Record<string, any>))
          recorded.push({ handler, ...access });
      return next(args);
    },
    { step: 'initialize', name: 'table-access-audit' },
  );
});
afterAll(() => {
  db.middlewareStack.remove('table-access-audit');
  if (ownEmit) Server.prototype.emit = emit;
  else delete (Server.prototype as Partial<Server>).emit;
  resetClock();
});

const post = (studio: CheckinStudio, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call('/group-shoot', { method: 'POST', headers: { ...studio.publicHeaders, ...headers }, body });
const paid = (studio: CheckinStudio, name: string) =>
  studio.validBody({
    name,
    selectedPackageId: studio.paidPackage.id,
    termsAccepted: true,
    shootingDayId: studio.openDay.id,
  });
const sessionOf = (checkoutUrl: string) => stripe.emulator.sessions.get(checkoutUrl.split('/').pop()!)!;

describe('what the functions send to DynamoDB', () => {
  it('stays within the grants of each function, on every path the functions take', async () => {
    // Prepare
    let clockMs = Date.now();
    setClock(() => clockMs);
    const studio = await createPayingStudio();
    const account = `acct_${studio.slug.replace(/-/g, '')}`;
    const server = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
      api.call(`/groupshoot/${studio.token}${path}`, {
        ...init,
        headers: { ...studio.serverHeaders, ...init.headers },
      });

    // Act: the public routes, free and paid, with Idempotency-Key, selfie, status and retry.
    await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
    // A real face, so that the reference-face function stores a descriptor (the packaged faces: scripts/faces/).
    const [selfie] = await packagedFaces();
    const free = await post(
      studio,
      studio.validBody({
        name: 'Free One',
        selfieBase64: selfie!.image.toString('base64'),
        faceConsent: true,
        shootingDayId: studio.smallDay.id,
      }),
      {
        'Idempotency-Key': 'free-1',
      },
    );
    await post(studio, studio.validBody({ name: 'Free One', shootingDayId: studio.smallDay.id }), {
      'Idempotency-Key': 'free-1',
    });
    const first = await post(studio, paid(studio, 'Payer One'));
    await post(studio, { action: 'checkinStatus', statusToken: first.body.statusToken });
    const retried = await post(studio, { action: 'retryCheckout', retryToken: first.body.retryToken });
    await stripe.emulator.deliveriesSettled();
    await stripe.emulator.pay(sessionOf(retried.body.checkoutUrl).id);
    const expiring = await post(studio, paid(studio, 'Payer Two'));
    await stripe.emulator.expire(sessionOf(expiring.body.checkoutUrl).id);
    await post(studio, { action: 'retryCheckout', retryToken: expiring.body.retryToken });
    const superseding = await post(studio, paid(studio, 'Payer Two')); // supersedes the reopened reservation of the same address
    await stripe.emulator.deliveriesSettled();
    await stripe.emulator.deliver('account.updated', account, {
      id: account,
      object: 'account',
      charges_enabled: true,
      capabilities: { card_payments: 'active' },
    });

    // Act: the server-side routes, the photo ingest, the sweep and the retention run.
    await server('/persons', {
      method: 'POST',
      body: { persons: [{ name: 'Imported', employeeId: 'E-1', shootingDayId: studio.openDay.id }] },
      headers: { 'Idempotency-Key': 'import-1' },
    });
    for (const path of ['/persons', '/persons?employeeId=E-1', '/days', '/stats', '/form-fields', '/uploads'])
      await server(path);
    // An importedOnly check-in (the policy set outside any function): the guest list, the invited person, the claim, the completion moving a day.
    const policy = (mode: 'open' | 'importedOnly') =>
      updateGallerySettings(studio.tenant.tenantId, studio.token, { checkinPolicy: { mode, allowedEmailDomains: [] } });
    await policy('importedOnly');
    const [handed] = await invitationsToHandOut(studio.tenant, studio.token, 'https://checkin.example.com/');
    const completing = await post(
      studio,
      studio.validBody({
        name: 'Imported',
        employeeId: 'E-1',
        invitation: new URL(handed!.checkinUrl).hash.replace('#invitation/', ''),
        shootingDayId: studio.smallDay.id,
        selfieBase64: makeJpeg(8, 8).toString('base64'),
      }),
    );
    expect(completing.status).toBe(200);
    await policy('open');
    const plan = await server('/uploads', {
      method: 'POST',
      body: { files: [{ path: 'cam/large.jpg', size: 9 * 1024 * 1024 }] },
      headers: { 'Idempotency-Key': 'uploads-1' },
    });
    await server('/uploads/complete', {
      method: 'POST',
      body: { files: [{ path: 'cam/large.jpg', uploadId: plan.body.uploads[0].uploadId, action: 'abort' }] },
      headers: { 'Idempotency-Key': 'abort-1' },
    });
    // The free participant is to get the photo-ready email (set outside any function, so not recorded).
    await updateGallerySettings(studio.tenant.tenantId, studio.token, {
      granularConsents: { face: true, notification: true, hrExport: true },
      photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
    });
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.person(studio.tenant.tenantId, studio.token, free.body.personId),
        UpdateExpression: 'SET consents.notificationConsent = :yes',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    const photoKey = photoObjectKey({
      tenantId: studio.tenant.tenantId,
      token: studio.token,
      personId: free.body.personId,
      fileName: 'a.jpg',
    });
    await uploadObject(photoKey, makeJpeg(8, 8));
    await serving.run('photos/sorting/ingest-photo', () => ingestPhoto(objectCreatedEvent(photoKey)));
    await server(`/persons/${free.body.personId}/photos`);
    // A sorted shoot: the imported person's card, a photo, and the free participant's card
    // between them arriving last, so that the photo moves from one person to the other.
    const importedCode = (await server('/persons?employeeId=E-1')).body.persons[0].code;
    const camera = { make: 'Canon', model: 'EOS R6', serial: '1' };
    const inbox = (path: string) => inboxObjectKey({ tenantId: studio.tenant.tenantId, token: studio.token, path });
    const shot = (second: number) => ({
      width: 800,
      height: 533,
      capturedAt: `2026-11-20T09:00:0${second}.000Z`,
      camera,
    });
    const shoot: [string, Buffer][] = [
      ['IMG_1.JPG', await cardJpeg({ ...shot(1), text: importedCode, size: 0.4 })],
      ['IMG_3.JPG', await portraitJpeg(shot(3))],
      ['IMG_2.JPG', await cardJpeg({ ...shot(2), text: free.body.code, size: 0.4 })],
    ];
    for (const [path, bytes] of shoot) {
      await uploadObject(inbox(path), bytes);
      await serving.run('photos/sorting/ingest-photo', () => ingestPhoto(objectCreatedEvent(inbox(path))));
    }
    const ownPhotos = await post(studio, {
      action: 'myPhotos',
      token: studio.token,
      code: free.body.code,
      email: 'free.one@example.com',
    });
    await post(studio, {
      action: 'myPhotos',
      token: studio.token,
      code: free.body.code,
      email: 'someone.else@example.com',
    });
    expect(ownPhotos.body.photos.map((photo: { fileName: string }) => photo.fileName).sort()).toEqual([
      'IMG_3.JPG',
      'a.jpg',
    ]);
    // The portrait picked, and a photo that is not the participant's refused.
    const pickBy = { action: 'pickPhoto', token: studio.token, code: free.body.code, email: 'free.one@example.com' };
    expect((await post(studio, { ...pickBy, photoId: ownPhotos.body.photos[0].photoId })).status).toBe(200);
    expect((await post(studio, { ...pickBy, photoId: 'pho_000000000000000000000000' })).status).toBe(404);
    // An HR export of the free participant's picked portrait: created and read through the API, built by the queue's worker.
    const hrExportMessages: HrExportMessage[] = [];
    useHrExportQueue({ send: async (message) => void hrExportMessages.push(message) });
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.person(studio.tenant.tenantId, studio.token, free.body.personId),
        UpdateExpression: 'SET consents.hrExportConsent = :yes',
        ExpressionAttributeValues: { ':yes': true },
      }),
    );
    const hrExport = await server('/hr-exports', {
      method: 'POST',
      body: { size: 64 },
      headers: { 'Idempotency-Key': 'hr-export-1' },
    });
    const hrExportRecords = hrExportMessages.map(
      (message, index) =>
        ({
          messageId: `hr-${index}`,
          body: JSON.stringify(message),
          attributes: { ApproximateReceiveCount: '1' },
        }) as unknown as SQSRecord,
    );
    const built = await serving.run(HR_EXPORT_BUILD_HANDLER, () => buildHrExports({ Records: hrExportRecords }));
    useHrExportQueue(undefined);
    expect([
      hrExport.status,
      built.batchItemFailures,
      (await server(`/hr-exports/${hrExport.body.exportId}`)).body.status,
    ]).toEqual([202, [], 'ready']);
    const overdue = await post(studio, paid(studio, 'Payer Three'));
    Object.assign(sessionOf(overdue.body.checkoutUrl), { status: 'complete', payment_status: 'paid' }); // its event lost
    const unpaid = await post(studio, paid(studio, 'Payer Four'));
    for (const lost of [unpaid, superseding]) sessionOf(lost.body.checkoutUrl).status = 'expired'; // their events lost
    const orphan = pendingOrder(
      { tenantId: studio.tenant.tenantId, galleryToken: studio.token, dayId: studio.openDay.id },
      { packageId: studio.paidPackage.id, accountId: account },
    );
    await reserveOrder(orphan, { status: `s-${orphan.orderId}`, retry: `r-${orphan.orderId}` }); // its check-in died before a session
    clockMs += 2 * 3600_000;
    await serving.run('payments/sweep-reservations', () => sweepReservations());
    // Act: the events of all that through the dispatcher and the delivery worker: a failed
    // attempt, its retry, and a replay an operator asked for.
    const receiver = await startWebhookReceiver();
    const subscribed = await admin(
      'webhook',
      'add',
      '--tenant',
      studio.slug,
      '--url',
      receiver.url,
      '--events',
      'all',
      '--json',
    );
    receiver.secret = subscribed.json().signingSecret;
    let refusals = 1;
    receiver.answer = () => (refusals-- > 0 ? 500 : 200);
    const queue = new LocalDeliveryQueue((event) =>
      serving.run(WEBHOOK_DELIVERY_HANDLER, () => deliverWebhooks(event)),
    );
    useDeliveryQueue(queue);
    const stream = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      handler: (event) => serving.run(EVENT_DISPATCH_HANDLER, () => dispatchEvents(event)),
      pollMs: 20,
    });
    await stream.caughtUp();
    await queue.settled();
    clockMs += 3600_000;
    await queue.settled();
    await admin(
      'webhook',
      'replay',
      '--tenant',
      studio.slug,
      '--id',
      subscribed.json().subscriptionId,
      '--event',
      receiver.received[0]!.event.id,
    );
    await stream.caughtUp();
    await queue.settled();
    await stream.stop();
    // The photo's event through the photo-ready email function: the email is claimed, sent and marked.
    const notices = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      handler: (event) => serving.run(PHOTO_NOTICE_HANDLER, () => sendPhotoNotices(event)),
      pollMs: 20,
    });
    await notices.caughtUp();
    await notices.stop();
    const emails = await ses.emails();
    expect(emails.map((email) => email.subject)).toEqual([expect.stringMatching(/^Your photos are ready/)]);
    // Its one-click unsubscribe, as a mail provider posts it: the unsubscribe function.
    const unsubscribe = emails[0]!.headers?.find((header) => header.name === 'List-Unsubscribe')?.value ?? '';
    const unsubscribePath = unsubscribe.slice(`<${process.env.PUBLIC_API_URL!}`.length, -1);
    const unsubscribed = await fetch(`${api.url}${unsubscribePath}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect([unsubscribePath.startsWith('/unsubscribe/'), unsubscribed.status]).toEqual([true, 200]);
    // The free participant's selfie (face consent given) through the reference-face function.
    const faces = await startChangeStream({
      endpoint: process.env.DYNAMODB_ENDPOINT!,
      tableName: process.env.TABLE_NAME!,
      handler: (event) => serving.run(REFERENCE_FACE_HANDLER, () => describeReferenceFaces(event)),
      pollMs: 20,
    });
    await faces.caughtUp();
    await faces.stop();
    expect([
      faces.failedHandovers(),
      recorded.filter((access) => access.handler === REFERENCE_FACE_HANDLER && access.action === 'PutItem').length,
    ]).toEqual([0, 1]);
    // The participant withdraws their face consent: the reference face read and deleted, the shoot's candidates forgotten.
    const withdrawn = await post(studio, { ...pickBy, action: 'withdrawFaceConsent' });
    expect([withdrawn.status, withdrawn.body.referenceDeleted]).toEqual([200, true]);
    useDeliveryQueue(undefined);
    await receiver.close();
    clockMs = Date.parse('2031-01-01T00:00:00Z'); // years after the last shooting day: everything is due
    const queued: RetentionMessage[] = [];
    useRetentionQueues({ send: async (messages) => void queued.push(...messages) });
    await serving.run(RETENTION_PLANNER_HANDLER, () => planRetention({}, { getRemainingTimeInMillis: () => 300_000 }));
    const galleries = queued.map(
      (message, index) => ({ messageId: String(index), body: JSON.stringify(message) }) as SQSRecord,
    );
    const retained = await serving.run(RETENTION_WORKER_HANDLER, () => applyGalleryRetention({ Records: galleries }));
    useRetentionQueues(undefined);
    expect([galleries.length > 0, retained.batchItemFailures]).toEqual([true, []]);

    // Assess: every function ran, and nothing it sent lies outside its grants.
    const ran = [...new Set(recorded.map((access) => access.handler))];
    const withTableGrants = Object.keys(FUNCTION_PERMISSIONS).filter(
      (handler) => FUNCTION_PERMISSIONS[handler]!.table.length > 0,
    );
    expect(ran.sort()).toEqual(withTableGrants.sort());
    const outside = recorded
      .filter((access) => !granted(access))
      .map(
        ({ handler, action, on, key, attributes }) => `${handler}: ${action} ${on} ${key} [${attributes.join(',')}]`,
      );
    expect([...new Set(outside)]).toEqual([]);
  }, 60_000);
});
