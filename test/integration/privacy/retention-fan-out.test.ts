import { resetClock, setClock } from '#lib/platform/clock';
import { listGalleries } from '#lib/galleries/store/galleries';
import { listTenants } from '#lib/tenants/store/tenants';
import { getPerson } from '#lib/persons/store/persons';
import { type RetentionMessage, useRetentionQueues } from '#lib/privacy/adapters/retention-queues';
import { planRetention } from '#lib/privacy/plan-retention';
import { type RetentionPipeline, startRetentionPipeline } from '../../../scripts/local/local-retention-queues';
import { installAwsMiddleware, removeAwsMiddleware } from '../../support/faults/aws-fault-injection';
import { lab } from '../../support/faults/fault-lab';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';
import { useLocalApi } from '../../support/local-api';

const api = useLocalApi();

/** Years after the studios' last shooting day (2027-05-02): every gallery's persons are due. */
const LONG_AFTER = Date.parse('2031-01-01T00:00:00Z');

async function participant(studio: CheckinStudio, name: string) {
  const answer = await api.call('/group-shoot', {
    method: 'POST',
    headers: studio.publicHeaders,
    body: studio.validBody({ name }),
  });
  expect(answer.status).toBe(200);
  return { scope: { tenantId: studio.tenant.tenantId, token: studio.token }, personId: answer.body.personId as string };
}

/** Every DynamoDB call about this gallery fails, as long as `failing()` says so. */
function failGallery(token: string, failing: () => boolean): void {
  lab.recording = true;
  lab.fault = (attempt) =>
    attempt.service === 'DynamoDB' && attempt.input.includes(token) && failing()
      ? { before: () => Object.assign(new Error('injected fault'), { name: 'InjectedFault' }) }
      : undefined;
}

let pipeline: RetentionPipeline | undefined;

beforeAll(() => installAwsMiddleware());

afterEach(() => {
  lab.fault = undefined;
  lab.recording = false;
  pipeline?.stop();
  pipeline = undefined;
  useRetentionQueues(undefined);
  resetClock();
});

afterAll(() => removeAwsMiddleware());

describe('the retention run, one gallery per message', () => {
  it('erases every other gallery while one fails, and that one when the queue hands it back', async () => {
    // Prepare
    const [first, failing, third] = await Promise.all([
      createCheckinStudio(),
      createCheckinStudio(),
      createCheckinStudio(),
    ]);
    const persons = [
      await participant(first, 'Anna First'),
      await participant(failing, 'Fred Failing'),
      await participant(third, 'Theo Third'),
    ];
    let failuresLeft = 2;
    failGallery(failing.token, () => failuresLeft-- > 0);
    pipeline = await startRetentionPipeline({ queue: { maxReceives: 3, visibilityTimeoutMs: 0 } });
    setClock(() => LONG_AFTER);
    // Act
    await pipeline.run();
    // Assess
    expect(failuresLeft).toBeLessThan(0);
    expect(pipeline.galleries.deadLetters).toEqual([]);
    for (const { scope, personId } of persons) expect(await getPerson(scope, personId)).toBeUndefined();
  });

  it('moves a gallery that keeps failing to the dead letters, and erases the others all the same', async () => {
    // Prepare
    const [broken, healthy] = await Promise.all([createCheckinStudio(), createCheckinStudio()]);
    const stuck = await participant(broken, 'Bert Broken');
    const erased = await participant(healthy, 'Hanna Healthy');
    failGallery(broken.token, () => true);
    pipeline = await startRetentionPipeline({ queue: { maxReceives: 3, visibilityTimeoutMs: 0 } });
    setClock(() => LONG_AFTER);
    // Act
    await pipeline.run();
    lab.fault = undefined;
    // Assess
    expect(pipeline.galleries.deadLetters.map((body) => JSON.parse(body))).toEqual([
      { kind: 'gallery', tenantId: broken.tenant.tenantId, token: broken.token },
    ]);
    expect(await getPerson(erased.scope, erased.personId)).toBeUndefined();
    expect(await getPerson(stuck.scope, stuck.personId)).toEqual(expect.objectContaining({ name: 'Bert Broken' }));
  });
});

describe('the retention planner', () => {
  it('queues every gallery once, going on from its checkpoint each time it is cut off', async () => {
    // Prepare: three galleries per studio, read one per page, and a run cut off after every second page.
    await Promise.all([createCheckinStudio(), createCheckinStudio()]);
    const expected = (
      await Promise.all(
        (await listTenants()).map(async (tenant) =>
          (await listGalleries(tenant.tenantId)).map((gallery) => `${tenant.tenantId}/${gallery.token}`),
        ),
      )
    ).flat();
    const sent: RetentionMessage[] = [];
    useRetentionQueues({ send: async (messages) => void sent.push(...messages) });
    const pagesPerRun = () => {
      let pages = 0;
      return () => (pages += 1) <= 2;
    };
    // Act
    const runs = [await planRetention({ keepGoing: pagesPerRun(), pageSize: 1 })];
    for (let continuation = sent.find((message) => message.kind === 'plan'); continuation?.kind === 'plan';) {
      sent.splice(sent.indexOf(continuation), 1);
      runs.push(await planRetention({ cursor: continuation.cursor, keepGoing: pagesPerRun(), pageSize: 1 }));
      continuation = sent.find((message) => message.kind === 'plan');
    }
    // Assess
    const queued = sent.map((message) =>
      message.kind === 'gallery' ? `${message.tenantId}/${message.token}` : 'plan',
    );
    expect(expected.length).toBeGreaterThanOrEqual(6);
    expect(queued.sort()).toEqual(expected.sort());
    expect(runs.length).toBeGreaterThan(2);
    expect(runs.slice(0, -1).every((run) => run.continued && run.galleriesQueued <= 2)).toBe(true);
    expect(runs.at(-1)!.continued).toBe(false);
  });

  it('stops with a continuation on the plan queue when its time runs out, which the planner then takes up', async () => {
    // Prepare: two tenants, so two pages at least.
    const [, studio] = await Promise.all([createCheckinStudio(), createCheckinStudio()]);
    const person = await participant(studio, 'Lena Late');
    let calls = 0;
    // Lambda's remaining time: enough for the first check, then less than the planner's margin, then plenty again.
    pipeline = await startRetentionPipeline({ timeLeft: () => ((calls += 1) === 2 ? 30_000 : 600_000) });
    setClock(() => LONG_AFTER);
    // Act
    await pipeline.run();
    // Assess
    expect(calls).toBeGreaterThan(2);
    expect(pipeline.plans.receives).toBe(1);
    expect(await getPerson(person.scope, person.personId)).toBeUndefined();
  });
});
