import { type StripeEmulator, startStripeEmulator } from '../../scripts/local/stripe-emulator';

/**
 * The Stripe emulator for this test file; the real `stripe` SDK of the service talks to it.
 * Call after useLocalApi(), with its API, so events are delivered to the local webhook route.
 */
export function useStripeEmulator(api: { readonly url: string }): { readonly emulator: StripeEmulator } {
  let emulator: StripeEmulator | undefined;
  beforeAll(async () => {
    emulator = await startStripeEmulator();
    emulator.webhookUrl = `${api.url}/webhooks/stripe`;
    process.env.STRIPE_SECRET_KEY = 'sk_test_groupshoot';
    process.env.STRIPE_API_BASE = emulator.url;
    process.env.STRIPE_WEBHOOK_SECRET = emulator.webhookSecret;
    process.env.CHECKIN_PAGE_URL = 'https://checkin.example.com/page';
    // The local stack, as `npm start` marks it: the check-in page the local API serves
    // (http://127.0.0.1:<port>/checkin/) is an allowed return URL.
    process.env.LOCAL_STACK = 'true';
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator() {
      if (!emulator) throw new Error('Stripe emulator not started');
      return emulator;
    },
  };
}
