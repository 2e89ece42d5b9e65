import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import type { WebhookEnvelope } from '#lib/client/webhook-signature';
import { eventFromItem, photosAssignedUpdate, photosWithheldUpdate } from '#lib/events/store/outbox';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import {
  EVENT_TYPES,
  type EventDataOf,
  type EventType,
  type ServiceEvent,
  checkinCompleted,
  envelopeOf,
  hrExportReady,
  orderEnded,
  orderPaid,
  personCreated,
  photoPicked,
  personConsentChanged,
} from '#lib/events/rules/event-catalogue';
import { EVENT_ENVELOPE_SCHEMAS, EVENT_SCHEMA_OF, WebhookEvent } from '#lib/events/rules/event-schemas';
import type { Person } from '#lib/persons/rules/person-model';
import { type MutuallyAssignable, sampleOrder, samplePerson } from '../../support/event-samples';
import { buildOpenApiDocument } from '../../../scripts/openapi/build-openapi';
import { EVENT_EXAMPLES } from '../../../scripts/openapi/examples';

/**
 * The webhook body schemas (the OpenAPI document's `webhooks`) against what the service really
 * sends: events built by the catalogue, as the worker turns them into bodies.
 */

// Compile time: each schema's `data` is the catalogue's data type, and its body the typed client's.
const schemasMatchTheCatalogue: {
  [T in EventType]: MutuallyAssignable<v.InferOutput<(typeof EVENT_ENVELOPE_SCHEMAS)[T]>['data'], EventDataOf[T]>;
} = {
  'person.created': true,
  'checkin.completed': true,
  'order.paid': true,
  'order.expired': true,
  'order.canceled': true,
  'photos.assigned': true,
  'photos.withheld': true,
  'photo.picked': true,
  'hr_export.ready': true,
  'person.consent_changed': true,
};
const schemasMatchTheClient: {
  [T in EventType]: MutuallyAssignable<v.InferOutput<(typeof EVENT_ENVELOPE_SCHEMAS)[T]>, WebhookEnvelope<T>>;
} = {
  'person.created': true,
  'checkin.completed': true,
  'order.paid': true,
  'order.expired': true,
  'order.canceled': true,
  'photos.assigned': true,
  'photos.withheld': true,
  'photo.picked': true,
  'hr_export.ready': true,
  'person.consent_changed': true,
};

const ROOT = join(__dirname, '..', '..', '..');
const scope = { tenantId: 'ten_01m6r25xbrbjvqqh90ejd3y8jz', galleryToken: 'hpfvwks795s6wvs8' };

const person = samplePerson;
const order = (buyer: Person) => sampleOrder(scope, buyer);

const gallery = { tenantId: scope.tenantId, token: scope.galleryToken };

/** A coalesced event as the stream or a read hands it over: the item its update (lib/events/store/outbox.ts) writes, after two photos. */
function coalescedEvent(update: TransactItem): ServiceEvent {
  const { Key, ExpressionAttributeNames: names, ExpressionAttributeValues: values } = update.Update!;
  return eventFromItem({
    ...Key,
    eventId: values![':eventId'],
    type: values![':type'],
    createdAt: values![':createdAt'],
    tenantId: values![':tenantId'],
    galleryToken: values![':token'],
    personId: values![':personId'],
    deliverAfter: values![':windowEnd'],
    expiresAt: values![':expiresAt'],
    [names!['#count']!]: 2,
  });
}

/** One event of every type, as the catalogue builds them, and each body as it goes over the wire. */
function realEvents(): ServiceEvent[] {
  const imported = person();
  const checkedIn = person({
    source: 'checkin',
    employeeId: null,
    shootingDayId: null,
    packageId: 'pkg_01m6r25xbtazhpeqcrzn3c9ej4',
  });
  const paying = person({ source: 'checkin', email: null, packageId: 'pkg_01m6r25xbtazhpeqcrzn3c9ej4' });
  const reservation = order(paying);
  return [
    personCreated(scope, imported),
    personCreated(scope, checkedIn),
    checkinCompleted(scope, checkedIn, null),
    checkinCompleted(scope, paying, reservation.orderId),
    orderPaid(reservation, paying.personId),
    orderEnded(reservation, 'expired'),
    orderEnded({ ...reservation, person: { ...paying, shootingDayId: null } }, 'canceled'),
    coalescedEvent(photosAssignedUpdate(gallery, imported.personId, Date.now())),
    coalescedEvent(photosWithheldUpdate(gallery, Date.now())),
    photoPicked(scope, {
      personId: imported.personId,
      photoId: 'pho_3f9c2a71d0b84e56a1c7e2d9',
      pickedBy: 'participant',
    }),
    photoPicked(scope, {
      personId: checkedIn.personId,
      photoId: 'pho_3f9c2a71d0b84e56a1c7e2d9',
      pickedBy: 'photographer',
    }),
    hrExportReady(scope, {
      exportId: 'hrx_01m95h2r4k6m8p0r2t4v6x8z0b',
      shootingDayId: null,
      exported: 3,
      skipped: { noConsent: 1, noPhoto: 0 },
    }),
    personConsentChanged(
      scope,
      { personId: checkedIn.personId, consent: 'notificationConsent', given: false, changedBy: 'participant' },
      new Date().toISOString(),
    ),
    personConsentChanged(
      scope,
      { personId: imported.personId, consent: 'faceConsent', given: false, changedBy: 'studio' },
      new Date().toISOString(),
    ),
  ];
}

const wire = (event: ServiceEvent) =>
  JSON.parse(JSON.stringify(envelopeOf(event, 'acme-photo'))) as Record<string, unknown> & { type: EventType };

describe('webhook body schemas (lib/events/rules/event-schemas.ts)', () => {
  it('hold the catalogue and the typed client to the same shapes (checked by the compiler)', () => {
    // Assess: the objects above compile only while every entry is true.
    expect(Object.keys(schemasMatchTheCatalogue).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.values(schemasMatchTheCatalogue).every(Boolean)).toBe(true);
    expect(Object.keys(schemasMatchTheClient).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.values(schemasMatchTheClient).every(Boolean)).toBe(true);
  });

  it('accept every event the catalogue builds, of every type, and drop nothing from it', () => {
    // Prepare
    const bodies = realEvents().map(wire);

    // Act
    const outcomes = bodies.map((body) => ({
      body,
      own: v.safeParse(EVENT_ENVELOPE_SCHEMAS[body.type], body),
      any: v.safeParse(WebhookEvent, body),
    }));

    // Assess
    expect(new Set(bodies.map((body) => body.type))).toEqual(new Set(EVENT_TYPES));
    for (const { body, own, any } of outcomes) {
      expect([body.type, own.issues?.map((issue) => issue.message) ?? null]).toEqual([body.type, null]);
      // Objects are open to additions, so a member the schema does not know would vanish from the output.
      expect(own.output).toEqual(body);
      expect(any.output).toEqual(body);
    }
  });

  it('read a coalesced event from its stored item: photos.assigned names its person, photos.withheld nobody', () => {
    // Act
    const assigned = coalescedEvent(photosAssignedUpdate(gallery, 'per_01m6r25xbrbjvqqh90ejd3y8jz', Date.now()));
    const withheld = coalescedEvent(photosWithheldUpdate(gallery, Date.now()));

    // Assess
    expect([assigned.type, assigned.personId, assigned.data]).toEqual([
      'photos.assigned',
      'per_01m6r25xbrbjvqqh90ejd3y8jz',
      { personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz', photosAdded: 2 },
    ]);
    expect([withheld.type, withheld.personId, withheld.data]).toEqual(['photos.withheld', null, { photosWithheld: 2 }]);
  });

  it('refuse bodies that break the contract', () => {
    // Prepare
    const created = realEvents().map(wire)[0] as Record<string, any>;
    const broken = [
      { ...created, id: 'evt_not-a-ulid' },
      { ...created, apiVersion: 'v2' },
      { ...created, type: 'person.deleted' },
      { ...created, createdAt: 'yesterday' },
      { ...created, data: { ...created.data, personId: undefined } },
      { ...created, data: { ...created.data, source: 'api' } },
    ];

    // Assess
    for (const body of broken) expect([body, v.safeParse(WebhookEvent, body).success]).toEqual([body, false]);
  });
});

describe('OpenAPI webhooks', () => {
  const document = buildOpenApiDocument();
  // The document's JSON schemas as a receiver would run them, the date-time format included.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    formats: { 'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/ },
  });
  ajv.addSchema({ $id: 'doc', components: document.components });
  const schemaValidator = (reference: string) => ajv.compile({ $ref: `doc${reference}` });

  it.each(EVENT_TYPES)('documents %s: its body schema, an example that validates, and the signature header', (type) => {
    // Prepare
    const operation = document.webhooks[type].post;
    const media = operation.requestBody.content['application/json'];
    const validate = schemaValidator(media.schema.$ref);

    // Assess
    expect(media.schema.$ref).toBe(`#/components/schemas/${EVENT_SCHEMA_OF[type]}`);
    expect(media.examples.example.value).toEqual(EVENT_EXAMPLES[type]);
    expect([validate(EVENT_EXAMPLES[type]), validate.errors ?? null]).toEqual([true, null]);
    expect(v.safeParse(EVENT_ENVELOPE_SCHEMAS[type], EVENT_EXAMPLES[type]).success).toBe(true);
    expect(operation.parameters).toEqual(
      expect.arrayContaining([{ $ref: '#/components/parameters/GroupshootSignature' }]),
    );
    expect(Object.keys(operation.responses)).toContain('2XX');
  });

  it('has a webhook for every event type and nothing else', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('its JSON schemas refuse what the valibot schemas refuse', () => {
    const validate = schemaValidator(`#/components/schemas/${EVENT_SCHEMA_OF['order.paid']}`);
    const example = EVENT_EXAMPLES['order.paid'];
    expect(validate({ ...example, data: { ...example.data, amount: 29.5 } })).toBe(false);
    expect(validate({ ...example, type: 'order.expired' })).toBe(false);
    expect(validate({ ...example, createdAt: '6 December 2026' })).toBe(false);
  });
});

describe('docs/events.md', () => {
  it('shows the same example bodies as the OpenAPI document', () => {
    // Prepare
    const text = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
    const bodies = [...text.matchAll(/```json\n([\s\S]*?)\n```/g)]
      .map((match) => match[1]!)
      .filter((block) => block.includes('"apiVersion"'))
      .map((block) => JSON.parse(block) as { type: EventType });

    // Assess
    for (const type of EVENT_TYPES) {
      const shown = bodies.filter((body) => body.type === type);
      expect([type, shown.length > 0]).toEqual([type, true]);
      for (const body of shown) expect(body).toEqual(EVENT_EXAMPLES[type]);
    }
  });
});
