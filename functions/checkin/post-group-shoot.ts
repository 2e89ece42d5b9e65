import { runCheckinAction } from '#lib/http/group-shoot-actions';
import { publicEndpoint } from '#lib/http/public-endpoint';

/** POST /group-shoot (public): the check-in action named by the body member `action`. */
export const handler = publicEndpoint('submitCheckin', ({ tenant, body, gallery, answerConcerns, clientAddress }) =>
  runCheckinAction(tenant, body, { loaded: gallery, answerConcerns, clientAddress }),
);
