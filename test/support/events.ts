import { now, resetClock, setClock } from '#lib/platform/clock';
import { type LocalEventPipeline, startEventPipeline } from '../../scripts/local/event-pipeline';

/**
 * The local event pipeline (stream dispatcher and delivery queue) for this test file, on a
 * clock the test moves: `retryFor` jumps from one due delivery to the next instead of sleeping.
 * Call after useLocalApi() (or useTestTable()), which creates the table it reads.
 */
export function useEventPipeline(options: { concurrency?: number } = {}) {
  let pipeline: LocalEventPipeline | undefined;
  let offset = 0;
  beforeAll(async () => {
    process.env.LOCAL_STACK = 'true';
    setClock(() => Date.now() + offset);
    pipeline = await startEventPipeline({ pollMs: 20, concurrency: options.concurrency });
  });
  afterAll(async () => {
    await pipeline?.stop();
    resetClock();
  });
  const running = () => {
    if (!pipeline) throw new Error('event pipeline not started');
    return pipeline;
  };
  return {
    get pipeline() {
      return running();
    },
    /** Every change so far dispatched, every due delivery attempted. */
    settled: () => running().settled(),
    /** Moves the service's clock forward. */
    advance(ms: number) {
      offset += ms;
    },
    /**
     * Lets `periodMs` of service time pass, attempting each delivery when it falls due (the
     * queue's hops and retries included), and settles.
     */
    async retryFor(periodMs: number) {
      const until = now() + periodMs;
      await running().settled();
      for (;;) {
        const next = running().queue.nextDueAt();
        if (next === undefined || next > until) break;
        if (next > now()) offset += next - now();
        await running().settled();
      }
      if (until > now()) offset += until - now();
      await running().settled();
    },
  };
}
