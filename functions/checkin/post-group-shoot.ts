import { runCheckinAction } from '#lib/http/group-shoot-actions';
import { endpoint } from '#lib/http/endpoint';

/** POST /group-shoot (public): the check-in action named by the body member `action`. */
export const handler = endpoint('submitCheckin', ({ tenant, body, gallery, answerConcerns, clientAddress }) =>
  runCheckinAction(tenant, body, { loaded: gallery, answerConcerns, clientAddress }),
);
