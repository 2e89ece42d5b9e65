import * as v from 'valibot';
import { withStripeBudget } from '#lib/payments/adapters/stripe-payments';
import { DomainError } from '#lib/platform/domain-error';
import { parseSubmitCheckin } from '#lib/checkin/checkin-schemas';
import type { CheckinAction, CheckinResult } from '#lib/http/group-shoot-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { BodyGalleryToken } from '#lib/galleries/gallery-schemas';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { submitCheckin } from '#lib/checkin/submit-checkin';
import { checkinStatus, retryCheckout } from '#lib/payments/checkout';
import { parseCheckinStatus, parseRetryCheckout } from '#lib/payments/payment-schemas';
import { participantPhotos } from '#lib/photos/access/participant-photos';
import { photosByLink, sendPhotoLink } from '#lib/photos/access/photos-by-link';
import { parseMyPhotos, parsePhotosByLink, parsePickPhoto, parseSendPhotoLink } from '#lib/photos/access/photo-schemas';
import { pickPhotoAsParticipant } from '#lib/photos/access/pick-photo';
import { withdrawFaceConsentAsParticipant } from '#lib/privacy/face-consent';
import { parseWithdrawFaceConsent } from '#lib/privacy/face-consent-schemas';
import { manageConsentsAsParticipant } from '#lib/privacy/participant-consents';
import { parseManageConsents } from '#lib/privacy/consent-schemas';

/** `answerConcerns`: names the persons an answer is about when its body does not (EndpointInput.answerConcerns). */
type AnswerConcerns = (personIds: readonly string[]) => void;

/** What the pipeline knows of the request besides its body. */
export interface ActionContext {
  /** The configuration the public rate limit read already. */
  loaded?: GalleryConfiguration;
  answerConcerns?: AnswerConcerns;
  /** The client's address, for the budgets of wrong photo lookups. */
  clientAddress?: string;
}

type Action = (
  tenant: Tenant,
  body: Record<string, unknown>,
  context: ActionContext,
) => Promise<ResultMembers<typeof CheckinResult>>;

/**
 * The group-shoot gallery the body names in `token`. An action that names one reads it before
 * its body is parsed: the documented order puts the gallery's refusals (token_required,
 * gallery_not_found, not_a_groupshoot_gallery) before the body's. `loaded`: the configuration
 * the public rate limit read already.
 */
function galleryOfBody(
  tenant: Tenant,
  body: Record<string, unknown>,
  loaded?: GalleryConfiguration,
): Promise<GalleryConfiguration> {
  return loadGroupShootGallery(tenant.tenantId, v.parse(BodyGalleryToken, body.token), loaded);
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
  checkinStatus: (tenant, body) => checkinStatus(tenant, parseCheckinStatus(body)),
  retryCheckout: (tenant, body) => retryCheckout(tenant, parseRetryCheckout(body)),
  myPhotos: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await participantPhotos(tenant, configuration, parseMyPhotos(body), clientAddress);
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  sendPhotoLink: async (tenant, body, { loaded }) =>
    sendPhotoLink(tenant, await galleryOfBody(tenant, body, loaded), parseSendPhotoLink(body)),
  photosByLink: async (tenant, body, { loaded, answerConcerns }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await photosByLink(tenant, configuration, parsePhotosByLink(body));
    answerConcerns?.([personId]);
    return answer;
  },
  pickPhoto: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await pickPhotoAsParticipant(
      tenant,
      configuration,
      parsePickPhoto(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  withdrawFaceConsent: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await withdrawFaceConsentAsParticipant(
      tenant,
      configuration,
      parseWithdrawFaceConsent(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  manageConsents: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await manageConsentsAsParticipant(
      tenant,
      configuration,
      parseManageConsents(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
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
