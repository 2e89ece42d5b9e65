import { db } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { queryPartition } from '#lib/platform/table/queries';
import { ACCESS_CODE_ALPHABET } from '#lib/persons/rules/access-codes';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';

const api = useLocalApi();
const CODE_PATTERN = new RegExp(`^[${ACCESS_CODE_ALPHABET}]{4}$`);

const importPaths = (token: string) => [`/group-shoot/checkin/${token}/persons`, `/groupshoot/${token}/persons`];

async function storedPersons(studio: TestTenant) {
  return queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
}

describe.each([0, 1])('POST persons (bulk import), path variant %i', (variant) => {
  let studio: TestTenant;
  const path = () => importPaths(studio.token)[variant]!;
  const post = (body: unknown, headers: Record<string, string> = studio.serverHeaders) =>
    api.call(path(), { method: 'POST', headers, body });

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('imports persons with personId, code, and null for what was not given', async () => {
    // Act
    const answer = await post({
      persons: [
        { name: '  Ada Lovelace ', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: studio.days.earlier.id },
        { name: 'Grace Hopper' },
      ],
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      ok: true,
      requestId: answer.headers.get('x-request-id'),
      galleryToken: studio.token,
      imported: 2,
      skipped: 0,
      persons: [
        {
          personId: expect.stringMatching(/^per_/),
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          employeeId: 'E-1',
          shootingDayId: studio.days.earlier.id,
          code: expect.stringMatching(CODE_PATTERN),
        },
        {
          personId: expect.any(String),
          name: 'Grace Hopper',
          email: null,
          employeeId: null,
          shootingDayId: null,
          code: expect.stringMatching(CODE_PATTERN),
        },
      ],
    });
    expect(answer.body).not.toHaveProperty('skippedDetails');
  });

  it('drops an unknown or non-string shootingDayId silently', async () => {
    const answer = await post({
      persons: [
        { name: 'A', shootingDayId: 'day_nope' },
        { name: 'B', shootingDayId: 42 },
      ],
    });
    expect(answer.body.imported).toBe(2);
    expect(answer.body.persons.map((person: { shootingDayId: unknown }) => person.shootingDayId)).toEqual([null, null]);
  });

  it('does not deduplicate: the same request twice creates the persons twice', async () => {
    const body = { persons: [{ name: 'Twin', employeeId: `dup-${variant}` }] };
    const first = await post(body);
    const second = await post(body);
    expect(first.body.imported).toBe(1);
    expect(second.body.imported).toBe(1);
    expect(first.body.persons[0].personId).not.toBe(second.body.persons[0].personId);
    const twins = (await storedPersons(studio)).filter((item) => item.employeeId === `dup-${variant}`);
    expect(twins).toHaveLength(2);
  });
});

describe('POST persons: request errors', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });
  const post = (body: unknown, token = studio.token) =>
    api.call(`/groupshoot/${token}/persons`, { method: 'POST', headers: studio.serverHeaders, body });

  function expectError(answer: { status: number; body: any; headers: Headers }, status: number, code: string) {
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: code, message: expect.any(String) }));
    expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
  }

  it.each([
    ['malformed JSON', '{"persons": ['],
    ['an empty body', ''],
    ['a JSON array', '[{"name":"A"}]'],
    ['a JSON string', '"persons"'],
    ['JSON null', 'null'],
    ['an object nested 33 levels deep', `{"persons":[${'['.repeat(31)}${']'.repeat(31)}],"x":{"y":"[[[[{{{{"}}`],
  ])('gives 400 invalid_json for %s', async (_case, raw) => {
    expectError(await post(raw), 400, 'invalid_json');
  });

  it('gives 400 invalid_json with an Idempotency-Key too, for a body nested thousands of levels deep', async () => {
    const deep = `{"persons":[],"nested":${'{"a":'.repeat(7000)}1${'}'.repeat(7000)}}`;
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: { ...studio.serverHeaders, 'Idempotency-Key': 'deep-body-1' },
      body: deep,
    });
    expectError(answer, 400, 'invalid_json');
  });

  it('counts nesting outside strings only: 32 levels and brackets in strings are read', async () => {
    const answer = await post(`{"persons":[${'['.repeat(30)}${']'.repeat(30)}],"note":"${'{['.repeat(50)}"}`);
    expect(answer.body.error).not.toBe('invalid_json');
  });

  it('reads JSON whatever the Content-Type says', async () => {
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: { ...studio.serverHeaders, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ persons: [{ name: 'Plain' }] }),
    });
    expect(answer.body.imported).toBe(1);
  });

  it('gives 413 payload_too_large above 5 MiB, in the JSON error shape', async () => {
    const answer = await post({ persons: [{ name: 'x'.repeat(5 * 1024 * 1024) }] });
    expectError(answer, 413, 'payload_too_large');
  });

  it("is refused by API Gateway itself above its 10 MB limit, before any function runs: 413 with the gateway's own body, not the error shape", async () => {
    // Up to 10 MB the request reaches the function, which answers payload_too_large above 5 MiB
    // (the test above); above 10 MB no function runs: no error code, no requestId, no X-Request-Id.
    const answer = await post('x'.repeat(11 * 1024 * 1024));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ message: 'Request Entity Too Large' });
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toBeNull();
  });

  it.each([
    ['no persons member', {}],
    ['an empty array', { persons: [] }],
    ['an object', { persons: { name: 'A' } }],
    ['a string', { persons: 'A' }],
    ['null', { persons: null }],
  ])('gives 400 persons_required for %s', async (_case, body) => {
    expectError(await post(body), 400, 'persons_required');
  });

  it('gives 400 too_many_persons for 501 persons and writes nothing', async () => {
    const before = (await storedPersons(studio)).length;
    const answer = await post({ persons: Array.from({ length: 501 }, (_, index) => ({ name: `P${index}` })) });
    expectError(answer, 400, 'too_many_persons');
    expect((await storedPersons(studio)).length).toBe(before);
  });

  it("gives 404 gallery_not_found for an unknown token and for another tenant's gallery", async () => {
    const other = await createTestTenant();
    expectError(await post({ persons: [{ name: 'A' }] }, 'unknowntoken'), 404, 'gallery_not_found');
    expectError(await post({ persons: [{ name: 'A' }] }, other.token), 404, 'gallery_not_found');
    expect(await queryPartition(keys.personsOfGallery(other.tenant.tenantId, other.token))).toHaveLength(0);
  });

  it('gives 400 not_a_groupshoot_gallery for an ordinary gallery', async () => {
    expectError(await post({ persons: [{ name: 'A' }] }, studio.ordinaryToken), 400, 'not_a_groupshoot_gallery');
  });

  it("checks the gallery before the body: an unknown or ordinary gallery's error comes first", async () => {
    expectError(await post({ persons: [] }, 'unknowntoken'), 404, 'gallery_not_found');
    expectError(await post({}, studio.ordinaryToken), 400, 'not_a_groupshoot_gallery');
  });
});

describe('POST persons: 500 rows with invalid ones among them', () => {
  it('counts exactly, lists each skipped index with its reason, and stores exactly the imported persons', async () => {
    // Prepare: every tenth row is invalid, in one of ten ways.
    const studio = await createTestTenant();
    const invalidRows: [unknown, string][] = [
      ['not an object', 'row_not_object'],
      [{ email: 'a@example.com' }, 'name_required'],
      [{ name: '   ' }, 'name_required'],
      [{ name: 42 }, 'name_not_string'],
      [{ name: 'n'.repeat(201) }, 'name_too_long'],
      [{ name: 'A', email: 'not-an-address' }, 'email_invalid'],
      [{ name: 'A', email: `${'e'.repeat(195)}@x.com` }, 'email_too_long'],
      [{ name: 'A', email: ['a@b.co'] }, 'email_not_string'],
      [{ name: 'A', employeeId: 12345 }, 'employee_id_not_string'],
      [{ name: 'A', employeeId: 'i'.repeat(101) }, 'employee_id_too_long'],
    ];
    const rows = Array.from({ length: 500 }, (_, index) =>
      index % 10 === 3
        ? invalidRows[((index - 3) / 10) % invalidRows.length]![0]
        : { name: `Person ${index}`, email: index % 2 ? `p${index}@example.com` : '', employeeId: `E${index}` },
    );
    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: rows },
    });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.imported).toBe(450);
    expect(answer.body.skipped).toBe(50);
    expect(answer.body.skippedDetails).toEqual(
      Array.from({ length: 50 }, (_, n) => ({ index: n * 10 + 3, reason: invalidRows[n % invalidRows.length]![1] })),
    );
    expect(answer.body.persons.map((person: { name: string }) => person.name)).toEqual(
      rows.flatMap((row, index) => (index % 10 === 3 ? [] : [`Person ${index}`])),
    );
    const codes = answer.body.persons.map((person: { code: string }) => person.code);
    expect(new Set(codes).size).toBe(450);
    const stored = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored.map((item) => item.personId).sort()).toEqual(
      answer.body.persons.map((person: { personId: string }) => person.personId).sort(),
    );
    const paged: { personId: string; code: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.call(`/groupshoot/${studio.token}/persons?limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: studio.serverHeaders,
      });
      paged.push(...page.body.persons);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(paged.map(({ personId, code }) => ({ personId, code }))).toEqual(
      answer.body.persons.map(({ personId, code }: { personId: string; code: string }) => ({ personId, code })),
    );
  });
});

describe('POST persons: shooting days', () => {
  it('counts imported persons toward the day, never refusing for capacity', async () => {
    const studio = await createTestTenant(); // the earlier day has capacity 5
    const persons = Array.from({ length: 7 }, (_, index) => ({
      name: `P${index}`,
      shootingDayId: studio.days.earlier.id,
    }));
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: [...persons, { name: 'Later', shootingDayId: studio.days.later.id }] },
    });
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(answer.body.imported).toBe(8);
    expect(days.body.shootingDays).toEqual([
      expect.objectContaining({ id: studio.days.earlier.id, maxPersons: 5, booked: 7, spotsRemaining: 0 }),
      expect.objectContaining({ id: studio.days.later.id, booked: 1 }),
    ]);
  });
});

describe('POST persons: access codes', () => {
  it('gives 10,000 persons of one gallery 10,000 distinct codes over 20 imports of 500', async () => {
    const studio = await createTestTenant({ plan: 'studio' });
    const codes: string[] = [];
    for (let batch = 0; batch < 20; batch += 1) {
      const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
        method: 'POST',
        headers: { ...studio.serverHeaders, Authorization: `Bearer ${studio.apiKey}` },
        body: { persons: Array.from({ length: 500 }, (_, index) => ({ name: `B${batch} P${index}` })) },
      });
      expect(answer.body.imported).toBe(500);
      codes.push(...answer.body.persons.map((person: { code: string }) => person.code));
    }
    expect(codes).toHaveLength(10_000);
    expect(new Set(codes).size).toBe(10_000);
    expect(codes.every((code) => CODE_PATTERN.test(code))).toBe(true);
  }, 120_000);
});

describe('POST persons: transient DynamoDB failures', () => {
  afterEach(() => {
    db.middlewareStack.remove('inject-fault');
  });

  type Fault = 'throttle' | 'lose-answer' | 'none';

  /**
   * Fails or loses the answer of the first send of some transactions (numbered in the order
   * they are first sent), after DynamoDB did or did not apply them; resends go through, so a
   * bounded retry always gets past the fault.
   */
  function injectTransactionFaults(fault: (transaction: number) => Fault) {
    const seen = new Set<string>();
    db.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'TransactWriteItemsCommand') return next(args);
        const token = String((args.input as { ClientRequestToken?: string }).ClientRequestToken);
        const firstSend = !seen.has(token);
        seen.add(token);
        const kind = firstSend ? fault(seen.size) : 'none';
        if (kind === 'throttle') throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
        const result = await next(args);
        if (kind === 'lose-answer') throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
        return result;
      },
      { step: 'initialize', name: 'inject-fault' },
    );
  }

  it.each([
    ['throttled transactions', (call: number): Fault => (call % 3 === 1 ? 'throttle' : 'none')],
    [
      'transactions whose answer is lost after they were applied',
      (call: number): Fault => (call % 2 === 1 ? 'lose-answer' : 'none'),
    ],
  ])('loses nothing and duplicates nothing with %s', async (_case, fault) => {
    // Prepare
    const studio = await createTestTenant();
    injectTransactionFaults(fault);
    // Act
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: {
        persons: Array.from({ length: 500 }, (_, index) => ({
          name: `P${index}`,
          shootingDayId: studio.days.later.id,
        })),
      },
    });
    db.middlewareStack.remove('inject-fault');
    // Assess
    expect(answer.body.imported).toBe(500);
    expect(answer.body.skipped).toBe(0);
    const stored = await queryPartition(keys.personsOfGallery(studio.tenant.tenantId, studio.token));
    expect(stored).toHaveLength(500);
    expect(new Set(stored.map((item) => item.name)).size).toBe(500);
    const codeItems = await Promise.all(
      stored.map((item) => queryPartition(keys.accessCode(studio.tenant.tenantId, studio.token, String(item.code)).pk)),
    );
    expect(
      codeItems.every((items, index) => items.length === 1 && items[0]!.personId === stored[index]!.personId),
    ).toBe(true);
    const days = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    expect(days.body.shootingDays.find((day: { id: string }) => day.id === studio.days.later.id).booked).toBe(500);
  });
});
