/**
 * The sealing key of webhook signing secrets on the local stack: fixed, so that `npm start
 * --data DIR` opens the secrets of an earlier run, and known to the admin CLI that adds them.
 * A deployed stack generates its own (the WebhookSealingKey secret).
 */
export const LOCAL_WEBHOOK_SEALING_KEY = 'local-development-only-webhook-sealing-key-not-for-deployment';

/**
 * The key photo links are signed with on the local stack: fixed, so that a link from an email of
 * an earlier `npm start --data DIR` run still opens. A deployed stack generates its own (the
 * PhotoLinkKey secret).
 */
export const LOCAL_PHOTO_LINK_KEY = 'local-development-only-photo-link-key-not-for-deployment';
