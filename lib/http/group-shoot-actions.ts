import { withStripeBudget } from '#lib/payments/adapters/stripe-payments';
import { DomainError } from '#lib/platform/domain-error';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import type { CheckinAction, CheckinResult } from '#lib/http/group-shoot-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { parseCheckinStatus, parseRetryCheckout } from '#lib/payments/payment-schemas';
import { type Action, type ActionContext, galleryOfBody } from '#lib/http/group-shoot-action';
import type { PARTICIPANT_ACTIONS } from '#lib/http/participant-actions';

/** A participant's action after the check-in, run from its module, which is loaded at its first use. */
function participantAction(name: keyof typeof PARTICIPANT_ACTIONS): Action {
  return async (tenant, body, context) =>
    (await import('#lib/http/participant-actions')).PARTICIPANT_ACTIONS[name](tenant, body, context);
}

/**
 * The operations of POST /group-shoot, of four features (check-in, payments, photos, privacy), selected by the body member `action`. This is where their
 * bodies are parsed, each by its own schema (the options of CheckinRequest): the use cases see
 * typed input only. The edge routes them, so that no feature depends on the others only to dispatch.
 */
const ACTIONS = {
  submitCheckin: async (tenant, body, { loaded }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    return submitCheckin(tenant, configuration, parseSubmitCheckin(body));
  },
  // The payments' code is loaded at its first use, as the paid check-in's is (submit-checkin.ts).
  checkinStatus: async (tenant, body) =>
    (await import('#lib/payments/checkout')).checkinStatus(tenant, parseCheckinStatus(body)),
  retryCheckout: async (tenant, body) =>
    (await import('#lib/payments/checkout')).retryCheckout(tenant, parseRetryCheckout(body)),
  myPhotos: participantAction('myPhotos'),
  sendPhotoLink: participantAction('sendPhotoLink'),
  photosByLink: participantAction('photosByLink'),
  pickPhoto: participantAction('pickPhoto'),
  withdrawFaceConsent: participantAction('withdrawFaceConsent'),
  manageConsents: participantAction('manageConsents'),
} satisfies Record<CheckinAction, Action>;

export const CHECKIN_ACTIONS = Object.keys(ACTIONS);

/**
 * Runs the action a POST /group-shoot body names (400 invalid_action for any other), with the
 * body as the JSON parser left it. The handler's one step.
 */
export function runCheckinAction(
  tenant: Tenant,
  body: Record<string, unknown>,
  context: ActionContext = {},
): Promise<ResultMembers<typeof CheckinResult>> {
  const action = body.action;
  if (typeof action !== 'string' || !Object.hasOwn(ACTIONS, action)) {
    throw new DomainError('invalid_action', `action must be one of: ${CHECKIN_ACTIONS.join(', ')}.`);
  }
  const run: Action = ACTIONS[action as CheckinAction];
  // One action is one request: its Stripe calls share one time budget.
  return withStripeBudget(() => run(tenant, body, context));
}
