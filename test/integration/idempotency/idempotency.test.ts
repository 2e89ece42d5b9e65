import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';
import { type CheckinStudio, createCheckinStudio } from '../../support/checkin-gallery';

const api = useLocalApi();

async function storedPersons(studio: TestTenant) {
  return queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
}

describe('Idempotency-Key on POST persons', () => {
  let studio: TestTenant;
  const importWith = (
    key: string | undefined,
    persons: unknown[],
    headers: Record<string, string> = studio.serverHeaders,
  ) =>
    api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: { ...headers, ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
      body: { persons },
    });

  beforeEach(async () => {
    studio = await createTestTenant();
  });
  afterEach(() => resetClock());

  it('answers a repeat with the first answer and creates nothing more', async () => {
    // Act
    const first = await importWith('import-2026-11-22', [{ name: 'A' }, { name: 'B' }]);
    const repeat = await importWith('import-2026-11-22', [{ name: 'A' }, { name: 'B' }]);
    // Assess
    expect(first.status).toBe(200);
    expect(repeat.status).toBe(200);
    expect(repeat.body.persons).toEqual(first.body.persons);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body.requestId).toBe(repeat.headers.get('x-request-id'));
    expect(repeat.body.requestId).not.toBe(first.body.requestId);
    expect(await storedPersons(studio)).toHaveLength(2);
  });

  it('refuses the same key with another body with 422 idempotency_key_reused', async () => {
    await importWith('key-1', [{ name: 'A' }]);
    const other = await importWith('key-1', [{ name: 'Z' }]);
    expect(other.status).toBe(422);
    expect(other.body.error).toBe('idempotency_key_reused');
    expect(await storedPersons(studio)).toHaveLength(1);
  });

  it('keeps the spec behaviour without the header: duplicates', async () => {
    await importWith(undefined, [{ name: 'A' }]);
    await importWith(undefined, [{ name: 'A' }]);
    expect(await storedPersons(studio)).toHaveLength(2);
  });

  it('creates one result for concurrent repeats of one key', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => importWith('concurrent', [{ name: 'Only once' }])),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    expect(statuses).toContain(200);
    for (const conflict of answers.filter((answer) => answer.status === 409))
      expect(conflict.body.error).toBe('idempotency_key_in_use');
    expect(await storedPersons(studio)).toHaveLength(1);
  });

  it('keeps keys apart per API key, and forgets them after 24 hours', async () => {
    let clockNow = Date.now();
    setClock(() => clockNow);
    const { secret } = await createApiKey(studio.tenant.tenantId, 'second key');
    await importWith('shared', [{ name: 'A' }]);
    await importWith('shared', [{ name: 'A' }], { 'X-Tenant-Slug': studio.slug, Authorization: `Bearer ${secret}` });
    expect(await storedPersons(studio)).toHaveLength(2);
    clockNow += 24 * 3600 * 1000 + 1000;
    const later = await importWith('shared', [{ name: 'A' }]);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await storedPersons(studio)).toHaveLength(3);
  });

  it('replays an error answer too', async () => {
    const refused = await importWith('bad', []);
    const replayed = await importWith('bad', []);
    expect([refused.status, replayed.status]).toEqual([400, 400]);
    expect(replayed.body.error).toBe('persons_required');
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  });

  it('frees the key after a server-side failure, so the retry runs', async () => {
    const { db } = await import('#lib/platform/table/client');
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'GetItemCommand' || context.commandName === 'QueryCommand') {
          const table = (args.input as { KeyConditionExpression?: string }).KeyConditionExpression;
          if (table === 'pk = :pk' && JSON.stringify(args.input).includes(studio.token)) {
            throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
          }
        }
        return next(args);
      },
      { step: 'initialize', name: 'inject-fault' },
    );
    let failed;
    try {
      failed = await importWith('retry-me', [{ name: 'A' }]);
    } finally {
      db.middlewareStack.remove('inject-fault');
    }
    const retried = await importWith('retry-me', [{ name: 'A' }]);
    expect(failed.status).toBe(503);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await storedPersons(studio)).toHaveLength(1);
  }, 30_000);

  it.each(['', 'x'.repeat(256), 'tab\there'])('refuses the malformed key %j with 400', async (key) => {
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: { ...studio.serverHeaders, 'Idempotency-Key': key },
      body: { persons: [{ name: 'A' }] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('invalid_idempotency_key');
    expect(await storedPersons(studio)).toHaveLength(0);
  });
});

describe('Idempotency-Key on POST /group-shoot', () => {
  it('checks a participant in once, however often the page resends', async () => {
    const studio: CheckinStudio = await createCheckinStudio();
    const send = () =>
      api.call('/group-shoot', {
        method: 'POST',
        headers: { ...studio.publicHeaders, 'Idempotency-Key': 'tap-1' },
        body: studio.validBody(),
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.body).toEqual({ ...first.body, requestId: second.headers.get('x-request-id') });
    expect(await storedPersons(studio)).toHaveLength(1);
  });
});
