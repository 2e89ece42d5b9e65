import * as v from 'valibot';
import { EVENT_API_VERSION, type EventType } from '#lib/events/rules/event-catalogue';

/**
 * The bodies of the webhook POSTs as valibot schemas: the source of the OpenAPI document's
 * `webhooks` and their component schemas (scripts/openapi/build-openapi.ts). Unit tests
 * validate events built by the catalogue against them and hold their types equal to the
 * catalogue's (EventDataOf), so the document cannot drift from what subscribers receive.
 * Objects are open: a field added within v1 breaks no receiver that ignores what it does not know.
 */

const personId = v.pipe(
  v.string(),
  v.startsWith('per_'),
  v.description('The person (per_…), as GET …/persons lists it.'),
);
const orderId = v.pipe(
  v.string(),
  v.startsWith('ord_'),
  v.description('The payment reservation (ord_…), as the check-in answered it.'),
);
const shootingDayId = v.pipe(
  v.nullable(v.string()),
  v.description("The person's shooting day, or null when none was chosen."),
);

export const PersonCreatedData = v.pipe(
  v.object({
    personId,
    source: v.pipe(
      v.picklist(['import', 'checkin']),
      v.description("import: an HR import (POST …/persons). checkin: a participant's own check-in, free or once paid."),
    ),
    employeeId: v.pipe(v.nullable(v.string()), v.description('The employee ID the import or check-in gave, or null.')),
    email: v.pipe(v.nullable(v.string()), v.description('The email address the import or check-in gave, or null.')),
    shootingDayId,
  }),
  v.description('A person was added to the gallery.'),
);

export const CheckinCompletedData = v.pipe(
  v.object({
    personId,
    shootingDayId,
    packageId: v.pipe(v.nullable(v.string()), v.description('The package chosen at check-in, or null.')),
    orderId: v.pipe(
      v.nullable(v.pipe(v.string(), v.startsWith('ord_'))),
      v.description('The paid order the check-in completed with; null for a free check-in.'),
    ),
  }),
  v.description('A participant checked in: at once for a free check-in, once paid for a paid one.'),
);

const orderEntries = {
  orderId,
  packageId: v.pipe(v.string(), v.description('The package paid for.')),
  amount: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.description('The price in minor units of the currency (cents).'),
  ),
  currency: v.pipe(v.string(), v.regex(/^[a-z]{3}$/), v.description('ISO 4217 code, lowercase (eur).')),
  shootingDayId,
};

export const OrderPaidData = v.pipe(
  v.object({
    ...orderEntries,
    personId: v.pipe(
      personId,
      v.description('The person the payment created (checkin.completed and person.created name it too).'),
    ),
  }),
  v.description('A payment reservation was paid; its person exists.'),
);

export const OrderEndedData = v.pipe(
  v.object(orderEntries),
  v.description(
    'A payment reservation ended unpaid and gave its spot back; no person was created. retryCheckout can reopen it.',
  ),
);

export const PhotosAssignedData = v.pipe(
  v.object({
    personId,
    photosAdded: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('Photos assigned to the person in the 5-minute window this event covers.'),
    ),
  }),
  v.description('Photos were assigned to a person; GET …/persons/{personId}/photos lists them.'),
);

export const PhotosWithheldData = v.pipe(
  v.object({
    photosWithheld: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(
        'Shoot photos withheld for review in the 5-minute window this event covers: their faces did not match the person their camera card names.',
      ),
    ),
  }),
  v.description("Photos wait for the studio's review (npm run admin -- photo review); names no person."),
);

export const PhotoPickedData = v.pipe(
  v.object({
    personId,
    photoId: v.pipe(
      v.string(),
      v.startsWith('pho_'),
      v.description(
        "The photo chosen, one of the person's (GET …/persons/{personId}/photos lists it with picked: true).",
      ),
    ),
    pickedBy: v.pipe(
      v.picklist(['participant', 'photographer']),
      v.description(
        'participant: on "My photos" of the check-in page (pickPhoto). photographer: npm run admin -- photo pick.',
      ),
    ),
  }),
  v.description(
    "A person's portrait was chosen (the photo an HR export takes); a later pick replaces it and sends another event.",
  ),
);

export const HrExportReadyData = v.pipe(
  v.object({
    exportId: v.pipe(
      v.string(),
      v.startsWith('hrx_'),
      v.description('The export (hrx_…), as POST …/hr-exports answered it.'),
    ),
    shootingDayId: v.pipe(
      v.nullable(v.string()),
      v.description('The shooting day the export covers, or null for the whole gallery.'),
    ),
    exported: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Portraits in the ZIP.')),
    skipped: v.pipe(
      v.object({
        noConsent: v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.description('Persons without hrExportConsent: true.'),
        ),
        noPhoto: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Consenting persons without a photo.')),
      }),
      v.description('Persons left out, by reason.'),
    ),
  }),
  v.description('An HR export is ready; GET …/hr-exports/{exportId} gives its download URL. Names no person.'),
);

export const PersonConsentChangedData = v.pipe(
  v.object({
    personId,
    consent: v.pipe(
      v.picklist(['faceConsent', 'notificationConsent', 'hrExportConsent']),
      v.description(
        "The consent that changed, by its check-in field's name. Never consentGiven: the studio's own consent ends only with erasure.",
      ),
    ),
    given: v.pipe(v.boolean(), v.description('Its value from now on: false withdrawn, true given again.')),
    changedBy: v.pipe(
      v.picklist(['participant', 'studio']),
      v.description(
        'participant: on the page a photo link opens (manageConsents) or with the unsubscribe link of an email. studio: npm run admin -- person face-consent --off.',
      ),
    ),
  }),
  v.description(
    "A consent of the person changed after check-in; createdAt is the change's time. Names the consent, not the person's data: GET …/persons shows the person.",
  ),
);

const envelopeEntries = {
  id: v.pipe(
    v.string(),
    v.regex(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/),
    v.description(
      'evt_ and 26 characters: unique, and the same on every attempt and replay of the event. Ignore an ID you have handled.',
    ),
  ),
  createdAt: v.pipe(
    v.string(),
    v.isoTimestamp(),
    v.description('When the change happened (ISO 8601, UTC), not when it was sent.'),
  ),
  apiVersion: v.pipe(
    v.literal(EVENT_API_VERSION),
    v.description('The version of the envelope and of every data shape.'),
  ),
  tenantSlug: v.pipe(v.string(), v.description('The tenant (its X-Tenant-Slug).')),
  galleryToken: v.pipe(v.string(), v.description('The gallery the event concerns.')),
};

const { id, ...aboutTheChange } = envelopeEntries;

function envelope<const T extends EventType, D extends v.GenericSchema>(type: T, data: D) {
  return v.object({ id, type: v.literal(type), ...aboutTheChange, data });
}

export const PersonCreatedEvent = envelope('person.created', PersonCreatedData);
export const CheckinCompletedEvent = envelope('checkin.completed', CheckinCompletedData);
export const OrderPaidEvent = envelope('order.paid', OrderPaidData);
export const OrderExpiredEvent = envelope('order.expired', OrderEndedData);
export const OrderCanceledEvent = envelope('order.canceled', OrderEndedData);
export const PhotosAssignedEvent = envelope('photos.assigned', PhotosAssignedData);
export const PhotosWithheldEvent = envelope('photos.withheld', PhotosWithheldData);
export const PhotoPickedEvent = envelope('photo.picked', PhotoPickedData);
export const HrExportReadyEvent = envelope('hr_export.ready', HrExportReadyData);
export const PersonConsentChangedEvent = envelope('person.consent_changed', PersonConsentChangedData);

/** Each type's body schema. */
export const EVENT_ENVELOPE_SCHEMAS = {
  'person.created': PersonCreatedEvent,
  'checkin.completed': CheckinCompletedEvent,
  'order.paid': OrderPaidEvent,
  'order.expired': OrderExpiredEvent,
  'order.canceled': OrderCanceledEvent,
  'photos.assigned': PhotosAssignedEvent,
  'photos.withheld': PhotosWithheldEvent,
  'photo.picked': PhotoPickedEvent,
  'hr_export.ready': HrExportReadyEvent,
  'person.consent_changed': PersonConsentChangedEvent,
} satisfies { [T in EventType]: v.GenericSchema };

/** Any webhook body, told apart by `type`. */
export const WebhookEvent = v.variant('type', [
  PersonCreatedEvent,
  CheckinCompletedEvent,
  OrderPaidEvent,
  OrderExpiredEvent,
  OrderCanceledEvent,
  PhotosAssignedEvent,
  PhotosWithheldEvent,
  PhotoPickedEvent,
  HrExportReadyEvent,
  PersonConsentChangedEvent,
]);

/** Component schemas by name, as the OpenAPI document names them. */
export const EVENT_SCHEMAS = {
  PersonCreatedData,
  CheckinCompletedData,
  OrderPaidData,
  OrderEndedData,
  PhotosAssignedData,
  PhotosWithheldData,
  PhotoPickedData,
  HrExportReadyData,
  PersonConsentChangedData,
  PersonCreatedEvent,
  CheckinCompletedEvent,
  OrderPaidEvent,
  OrderExpiredEvent,
  OrderCanceledEvent,
  PhotosAssignedEvent,
  PhotosWithheldEvent,
  PhotoPickedEvent,
  HrExportReadyEvent,
  PersonConsentChangedEvent,
};

/** The component schema of each type's body. */
export const EVENT_SCHEMA_OF: { [T in EventType]: keyof typeof EVENT_SCHEMAS } = {
  'person.created': 'PersonCreatedEvent',
  'checkin.completed': 'CheckinCompletedEvent',
  'order.paid': 'OrderPaidEvent',
  'order.expired': 'OrderExpiredEvent',
  'order.canceled': 'OrderCanceledEvent',
  'photos.assigned': 'PhotosAssignedEvent',
  'photos.withheld': 'PhotosWithheldEvent',
  'photo.picked': 'PhotoPickedEvent',
  'hr_export.ready': 'HrExportReadyEvent',
  'person.consent_changed': 'PersonConsentChangedEvent',
};
