import { DELIVERY_TIMEOUT_MS } from '#lib/webhooks/rules/delivery-schedule';
import { EVENT_TYPES, type EventType, PHOTOS_COALESCING_WINDOW_MS } from '#lib/events/rules/event-catalogue';
import { EVENT_SCHEMA_OF } from '#lib/events/rules/event-schemas';
import { SIGNATURE_HEADER } from '#lib/webhooks/rules/signature';
import { EVENT_EXAMPLES } from './examples';

type Json = Record<string, any>;

/**
 * The OpenAPI 3.1 `webhooks` of the document: the POST the service sends a subscription's
 * endpoint for each event type (docs/events.md), with its body schema (from
 * lib/events/rules/event-schemas.ts), an example and the headers every delivery carries.
 */

/** When each event is sent, and what causes it. */
const EVENT_DESCRIPTIONS: { [T in EventType]: { summary: string; description: string } } = {
  'person.created': {
    summary: 'A person was added to a gallery',
    description:
      'Sent for every person stored: by an HR import (POST …/persons; source import), a free check-in, or a paid check-in once its payment completed (source checkin). An import of 500 persons sends 500 events.',
  },
  'checkin.completed': {
    summary: 'A participant checked in',
    description:
      'A free check-in at once (orderId null); a paid check-in when Stripe reports the payment (orderId set, together with order.paid and person.created). Imports do not send it.',
  },
  'order.paid': {
    summary: 'A payment reservation was paid',
    description:
      'Stripe reported the payment (checkout.session.completed paid, or checkout.session.async_payment_succeeded); the person exists, and person.created and checkin.completed come from the same change.',
  },
  'order.expired': {
    summary: 'A payment reservation expired unpaid',
    description:
      "Its Checkout Session expired (Stripe's event, or the reservation sweep finding it expired or its retry abandoned), or a new check-in of the same email address replaced it. The spot was given back. retryCheckout can reopen the order, and another order event follows.",
  },
  'order.canceled': {
    summary: 'A payment reservation was canceled',
    description:
      'Its asynchronous payment (a bank debit) failed (checkout.session.async_payment_failed). The spot was given back. retryCheckout can reopen the order, and another order event follows.',
  },
  'photos.assigned': {
    summary: 'Photos were assigned to a person',
    description: `Photos stored for a person (the S3 ingest, or admin photo add), coalesced: one event per person and ${PHOTOS_COALESCING_WINDOW_MS / 60_000}-minute window, sent once the window has closed, with the number of photos it added.`,
  },
  'photos.withheld': {
    summary: "Photos wait for the studio's review",
    description: `Shoot photos withheld for review because their faces did not match the person their camera card names, coalesced: one event per gallery and ${PHOTOS_COALESCING_WINDOW_MS / 60_000}-minute window, sent once the window has closed, with the number of photos it withheld. It names no person, by design: a withheld photo may show someone who never consented. The studio reviews them (npm run admin -- photo review) and releases or assigns each.`,
  },
  'photo.picked': {
    summary: "A person's portrait was chosen",
    description:
      'The participant chose one of their photos as their portrait on "My photos" of the check-in page (pickPhoto; pickedBy participant), or the studio chose it (npm run admin -- photo pick; pickedBy photographer). A later pick by either replaces it and sends another event. Without a pick the first photo by capture order is the portrait.',
  },
  'hr_export.ready': {
    summary: 'An HR export is ready to download',
    description:
      'The ZIP of an HR export (POST …/hr-exports) is in the bucket: one square portrait per consenting person and manifest.csv. GET …/hr-exports/{exportId} gives a download URL. It names no person; the counts say how many portraits it holds and how many persons it left out, by reason.',
  },
  'person.consent_changed': {
    summary: "A person's consent changed after check-in",
    description:
      "The participant withdrew faceConsent, notificationConsent or hrExportConsent, or gave notificationConsent or hrExportConsent again, on the page a photo link opens (manageConsents) or with the one-click unsubscribe link of an email (notificationConsent); or the studio withdrew faceConsent (npm run admin -- person face-consent --off). One event per change that changed something: a repeated withdrawal sends none. It names the consent and its new value, not the person's data; GET …/persons shows the consents and the time of each one's last change. The studio's own consent (consentGiven) never changes this way: it ends with erasure.",
  },
};

const header = (name: string, description: string, schema: Json): Json => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** The headers every delivery carries, as reusable parameters. */
export const WEBHOOK_PARAMETERS: Json = {
  GroupshootSignature: header(
    SIGNATURE_HEADER,
    't=<Unix seconds of this attempt>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the signing secret>; one v1 per valid secret while a rotated secret is in its grace period. Verify it on the raw body (lib/client/webhook-signature.ts).',
    { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
  ),
  GroupshootEventId: header('Groupshoot-Event-Id', "The body's id: the same on every attempt of the event.", {
    type: 'string',
  }),
  GroupshootDeliveryAttempt: header(
    'Groupshoot-Delivery-Attempt',
    'Which attempt of this delivery this is, from 1, every replay included.',
    {
      type: 'string',
      pattern: '^[1-9]\\d*$',
    },
  ),
  WebhookUserAgent: header('User-Agent', 'Always groupshoot-webhooks/1.', {
    type: 'string',
    const: 'groupshoot-webhooks/1',
  }),
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

function webhookOperation(type: EventType): Json {
  const { summary, description } = EVENT_DESCRIPTIONS[type];
  const operationId = `${type.replace(/\.(\w)/, (_, letter: string) => letter.toUpperCase())}Event`;
  return {
    post: {
      operationId,
      summary: `${type}: ${summary}`,
      description: `${description} Delivered at least once (duplicates carry the same id), in no guaranteed order.`,
      tags: ['Events'],
      security: [],
      parameters: [
        ref('parameters', 'GroupshootSignature'),
        ref('parameters', 'GroupshootEventId'),
        header('Groupshoot-Event-Type', "The body's type.", { type: 'string', const: type }),
        ref('parameters', 'GroupshootDeliveryAttempt'),
        ref('parameters', 'WebhookUserAgent'),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('schemas', EVENT_SCHEMA_OF[type]),
            examples: { example: { value: EVENT_EXAMPLES[type] } },
          },
        },
      },
      responses: {
        '2XX': {
          description: `Received: any 2xx answer within ${DELIVERY_TIMEOUT_MS / 1000} s delivers the event; the answer body is ignored.`,
        },
        '4XX': { description: 'A failed attempt, retried (400 for a signature that does not verify, for example).' },
        default: {
          description: `Any other answer (a redirect is never followed), or none within ${DELIVERY_TIMEOUT_MS / 1000} s: a failed attempt, retried with backoff for three days.`,
        },
      },
    },
  };
}

/** The `webhooks` member: one POST per event type. */
export function webhookOperations(): Json {
  return Object.fromEntries(EVENT_TYPES.map((type) => [type, webhookOperation(type)]));
}
