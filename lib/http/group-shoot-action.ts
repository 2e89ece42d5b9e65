import * as v from 'valibot';
import type { CheckinResult } from '#lib/http/group-shoot-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { BodyGalleryToken } from '#lib/galleries/gallery-schemas';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

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

/** One action of POST /group-shoot: its body as the JSON parser left it, its answer's members. */
export type Action = (
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
export function galleryOfBody(
  tenant: Tenant,
  body: Record<string, unknown>,
  loaded?: GalleryConfiguration,
): Promise<GalleryConfiguration> {
  return loadGroupShootGallery(tenant.tenantId, v.parse(BodyGalleryToken, body.token), loaded);
}
