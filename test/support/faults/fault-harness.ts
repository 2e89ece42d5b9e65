/**
 * The fault harness around a test file: the local API and the Stripe emulator, the Stripe fault
 * proxy between them, the AWS clients' fault middleware (fresh for each test), the observed
 * retries, the black hole for hanging calls, the standing clock, and the studio with its
 * galleries made ahead.
 */
import { resetClock } from '#lib/platform/clock';
import { logger } from '#lib/platform/logger';
import {
  closeBlackHole,
  installAwsMiddleware,
  openBlackHole,
  releaseBlackHole,
  removeAwsMiddleware,
} from './aws-fault-injection';
import { stopFaults } from './fault-window';
import { beginRun, createFaultStudio, fillGalleryPool, standClock } from './galleries';
import { useLocalServices } from './local-services';
import { observeRetries, stopObservingRetries } from './retry-observation';
import { printSummary } from './run-summary';
import { flushDeliveries, startStripeFaultProxy, stopStripeFaultProxy } from './stripe-fault-proxy';

/** Call once, at the top level of the test file; `galleriesAhead` galleries are made before the first test. */
export function useFaultHarness(options: { galleriesAhead: number }): void {
  useLocalServices();

  beforeAll(async () => {
    await observeRetries();
    logger.setLogLevel('SILENT'); // every fault is logged by the service; the assertions say what matters
    standClock();
    await openBlackHole();
    await startStripeFaultProxy();
    await createFaultStudio();
    await fillGalleryPool(options.galleriesAhead);
  }, 60_000);

  beforeEach(() => {
    beginRun();
    installAwsMiddleware();
  });

  afterEach(async () => {
    stopFaults();
    removeAwsMiddleware();
    releaseBlackHole();
    await flushDeliveries();
  });

  afterAll(async () => {
    stopObservingRetries();
    resetClock();
    await stopStripeFaultProxy();
    await closeBlackHole();
    printSummary();
  });
}
