/**
 * The local API and the Stripe emulator that the fault harness sends its requests to, started
 * for the test file by useFaultHarness(); every module of the harness reaches them through here.
 */
import type { StripeEmulator } from '../../../scripts/local/stripe-emulator';
import { type ApiAnswer, type ApiCall, useLocalApi } from '../local-api';
import { useStripeEmulator } from '../stripe';

let api: { call(path: string, options?: ApiCall): Promise<ApiAnswer>; readonly url: string } | undefined;
let stripe: { readonly emulator: StripeEmulator } | undefined;

/** Starts the local API and then the Stripe emulator (which delivers to it) around the test file. */
export function useLocalServices(): void {
  api = useLocalApi();
  stripe = useStripeEmulator(api);
}

export const services = {
  get api() {
    if (!api) throw new Error('useFaultHarness() has not started the local API');
    return api;
  },
  get emulator(): StripeEmulator {
    if (!stripe) throw new Error('useFaultHarness() has not started the Stripe emulator');
    return stripe.emulator;
  },
};
