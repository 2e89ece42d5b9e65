/**
 * The sealing key of webhook signing secrets on the local stack: fixed, so that `npm start
 * --data DIR` opens the secrets of an earlier run, and known to the admin CLI that adds them.
 * A deployed stack generates its own (the WebhookSealingKey secret).
 */
export const LOCAL_WEBHOOK_SEALING_KEY = 'local-development-only-webhook-sealing-key-not-for-deployment';
