import { DomainError } from '#lib/domain/domain-error';
import type { CheckinResult, ResultMembers } from '#lib/api-schemas';
import type { Tenant } from '#lib/db/tenants';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { checkinStatus, retryCheckout } from '#lib/payments/checkout';

/** The operations of POST /group-shoot, selected by the body member `action`. */
const ACTIONS = {
  submitCheckin,
  checkinStatus,
  retryCheckout,
} satisfies Record<string, (tenant: Tenant, body: Record<string, unknown>) => Promise<ResultMembers<typeof CheckinResult>>>;

export const CHECKIN_ACTIONS = Object.keys(ACTIONS);

export function runCheckinAction(tenant: Tenant, body: Record<string, unknown>): Promise<ResultMembers<typeof CheckinResult>> {
  const action = body.action;
  if (typeof action !== 'string' || !Object.hasOwn(ACTIONS, action)) {
    throw new DomainError('invalid_action', `action must be one of: ${CHECKIN_ACTIONS.join(', ')}.`);
  }
  return ACTIONS[action as keyof typeof ACTIONS](tenant, body);
}
