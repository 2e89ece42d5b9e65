import { runsOnLocalStack } from '#lib/platform/config';
import { secretValue } from '#lib/platform/secrets-manager';
import type { AddressMode } from '#lib/webhooks/rules/address-policy';

/** What subscribing and delivering share: where webhooks may go, and the key their secrets are sealed with. */

/** Outside the local stack, webhooks go only to public addresses (docs/events.md#server-side-request-forgery). */
export function webhookAddressMode(): AddressMode {
  return runsOnLocalStack() ? 'local' : 'strict';
}

/** The key signing secrets are sealed with (the deployment's WebhookSealingKey secret). */
export async function sealingKeyMaterial(): Promise<string> {
  const key = await secretValue('WEBHOOK_SEALING_KEY');
  if (!key) throw new Error('WEBHOOK_SEALING_KEY is not configured');
  return key;
}
