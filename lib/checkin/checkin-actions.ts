import { withStripeBudget } from '#lib/payments/adapters/stripe-payments';
import { DomainError } from '#lib/platform/domain-error';
import type { CheckinResult } from '#lib/checkin/checkin-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { checkinStatus, retryCheckout } from '#lib/payments/checkout';
import { participantPhotos } from '#lib/photos/participant-photos';

/** The operations of POST /group-shoot, selected by the body member `action`. */
const ACTIONS = {
  submitCheckin,
  checkinStatus,
  retryCheckout,
  myPhotos: participantPhotos,
} satisfies Record<string, (tenant: Tenant, body: Record<string, unknown>, loaded?: GalleryConfiguration) => Promise<ResultMembers<typeof CheckinResult>>>;

export const CHECKIN_ACTIONS = Object.keys(ACTIONS);

export function runCheckinAction(
  tenant: Tenant,
  body: Record<string, unknown>,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof CheckinResult>> {
  const action = body.action;
  if (typeof action !== 'string' || !Object.hasOwn(ACTIONS, action)) {
    throw new DomainError('invalid_action', `action must be one of: ${CHECKIN_ACTIONS.join(', ')}.`);
  }
  // One action is one request: its Stripe calls share one time budget.
  return withStripeBudget(() => ACTIONS[action as keyof typeof ACTIONS](tenant, body, loaded));
}
