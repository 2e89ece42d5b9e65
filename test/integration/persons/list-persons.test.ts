import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';

const api = useLocalApi();

describe.each([0, 1])('GET persons, path variant %i', (variant) => {
  let studio: TestTenant;
  let imported: { personId: string; name: string; code: string; employeeId: string | null }[];
  const path = (token = studio.token) =>
    [`/group-shoot/checkin/${token}/persons`, `/groupshoot/${token}/persons`][variant]!;
  const get = (query = '', headers = studio.serverHeaders) => api.call(`${path()}${query}`, { headers });

  beforeAll(async () => {
    studio = await createTestTenant({ plan: 'pro' });
    const rows = Array.from({ length: 230 }, (_, index) => ({
      name: `Person ${index}`,
      email: index === 0 ? 'first@example.com' : undefined,
      employeeId: index % 50 === 7 ? 'SHARED-7' : `E${index}`,
      shootingDayId: index === 0 ? studio.days.earlier.id : undefined,
    }));
    rows.push({ name: 'Bad', email: 'not-an-email', employeeId: 'E-bad', shootingDayId: undefined });
    const answer = await api.call(`/groupshoot/${studio.token}/persons`, {
      method: 'POST',
      headers: studio.serverHeaders,
      body: { persons: rows },
    });
    expect(answer.body.imported).toBe(230);
    imported = answer.body.persons;
  });

  it('pages through exactly the imported persons, oldest first, with the default limit of 100', async () => {
    // Act
    const pages = [];
    let cursor: string | null = null;
    do {
      const answer = await get(cursor ? `?cursor=${encodeURIComponent(cursor)}` : '');
      expect(answer.status).toBe(200);
      pages.push(answer.body.persons);
      cursor = answer.body.nextCursor;
    } while (cursor);
    // Assess
    expect(pages.map((page) => page.length)).toEqual([100, 100, 30]);
    expect(pages.flat().map((person: { personId: string }) => person.personId)).toEqual(
      imported.map((person) => person.personId),
    );
  });

  it('honours limit and says null when no page follows', async () => {
    const first = await get('?limit=229');
    const second = await get(`?limit=229&cursor=${first.body.nextCursor}`);
    expect(first.body.persons).toHaveLength(229);
    expect(second.body.persons).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const all = await get('?limit=500');
    expect(all.body.persons).toHaveLength(230);
    expect(all.body.nextCursor).toBeNull();
  });

  it('shows everything the service holds about a person', async () => {
    const answer = await get('?limit=1');
    expect(answer.body).toEqual({
      ok: true,
      requestId: answer.headers.get('x-request-id'),
      galleryToken: studio.token,
      nextCursor: expect.any(String),
      persons: [
        {
          personId: imported[0]!.personId,
          name: 'Person 0',
          email: 'first@example.com',
          employeeId: 'E0',
          phone: null,
          department: null,
          notes: null,
          shootingDayId: studio.days.earlier.id,
          packageId: null,
          orderNotes: null,
          code: imported[0]!.code,
          consentGiven: null,
          faceConsent: null,
          notificationConsent: null,
          hrExportConsent: null,
          // Each consent's last change after check-in (none for an imported person)
          consentChanges: { faceConsent: null, notificationConsent: null, hrExportConsent: null },
          customFields: {},
          source: 'import',
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          checkedInAt: null,
          hasSelfie: false,
          photoCount: 0,
          language: null,
          declared: null,
        },
      ],
    });
  });

  it('filters by exact employeeId, and pages the filtered list', async () => {
    const shared = imported.filter((person) => person.employeeId === 'SHARED-7').map((person) => person.personId);
    const first = await get('?employeeId=SHARED-7&limit=3');
    const rest = await get(`?employeeId=SHARED-7&limit=3&cursor=${first.body.nextCursor}`);
    expect(shared).toHaveLength(5);
    expect(
      [...first.body.persons, ...rest.body.persons].map((person: { personId: string }) => person.personId),
    ).toEqual(shared);
    expect(rest.body.nextCursor).toBeNull();
  });

  it.each(['SHARED', 'shared-7', 'E-bad', 'E1 '])(
    'finds nothing for a near miss or a skipped row: %p',
    async (employeeId) => {
      const answer = await get(`?employeeId=${encodeURIComponent(employeeId)}`);
      const expected = employeeId === 'E1 ' ? 1 : 0; // values are trimmed like imported ones
      expect(answer.body.persons).toHaveLength(expected);
    },
  );

  it.each([
    ['limit', '?limit=0'],
    ['limit', '?limit=501'],
    ['limit', '?limit=ten'],
    ['limit', '?limit=1.5'],
    ['cursor', '?cursor=not-a-cursor'],
    ['cursor', `?cursor=${Buffer.from('p1:per_x').toString('base64url')}`],
    ['employeeId', '?employeeId='],
    ['employeeId', `?employeeId=${'x'.repeat(101)}`],
  ])('gives 400 invalid_parameter naming %s for %s', async (parameter, query) => {
    const answer = await get(query);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'invalid_parameter', parameter }));
  });

  it("gives 404 gallery_not_found for another tenant's gallery, and lists none of its persons", async () => {
    const other = await createTestTenant();
    await api.call(`/groupshoot/${other.token}/persons`, {
      method: 'POST',
      headers: other.serverHeaders,
      body: { persons: [{ name: 'Theirs' }] },
    });
    const answer = await api.call(path(other.token), { headers: studio.serverHeaders });
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('gallery_not_found');
    expect(JSON.stringify(answer.body)).not.toContain('Theirs');
  });
});
