import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { keys } from '../../support/table-keys';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';

const api = useLocalApi();

describe.each([0, 1])('GET stats, path variant %i', (variant) => {
  let studio: TestTenant;
  const path = (token: string) => [`/group-shoot/checkin/${token}/stats`, `/groupshoot/${token}/stats`][variant]!;

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('starts at zero for a new gallery', async () => {
    const answer = await api.call(path(studio.token), { headers: studio.serverHeaders });
    expect(answer.status).toBe(200);
    expect(answer.body.persons).toEqual({
      total: 0,
      bySource: { import: 0, checkin: 0 },
      withSelfie: 0,
      withPhotos: 0,
    });
    expect(answer.body.photos).toEqual({ total: 0, unassigned: 0, withheld: 0, cards: 0 });
  });

  it('counts imports per source and per day, from counters rather than persons', async () => {
    // Prepare
    const fresh = await createTestTenant();
    await api.call(`/groupshoot/${fresh.token}/persons`, {
      method: 'POST',
      headers: fresh.serverHeaders,
      body: {
        persons: [
          { name: 'A', shootingDayId: fresh.days.earlier.id },
          { name: 'B', shootingDayId: fresh.days.earlier.id },
          { name: 'C', shootingDayId: fresh.days.later.id },
          { name: 'D' },
          { name: '' },
        ],
      },
    });
    // Act
    const answer = await api.call(path(fresh.token), { headers: fresh.serverHeaders });
    // Assess
    expect(answer.body).toEqual({
      ok: true,
      requestId: answer.headers.get('x-request-id'),
      galleryToken: fresh.token,
      persons: { total: 4, bySource: { import: 4, checkin: 0 }, withSelfie: 0, withPhotos: 0 },
      photos: { total: 0, unassigned: 0, withheld: 0, cards: 0 },
      orders: { pending: 0, paid: 0, expired: 0, canceled: 0 },
      shootingDays: [
        {
          id: fresh.days.earlier.id,
          date: '2027-03-01',
          label: 'First day',
          booked: 2,
          maxPersons: 5,
          spotsRemaining: 3,
        },
        {
          id: fresh.days.later.id,
          date: '2027-03-02',
          label: 'Second day',
          booked: 1,
          maxPersons: null,
          spotsRemaining: null,
        },
      ],
      capacity: { configured: 5, booked: 2, daysWithoutCapacity: 1 },
    });
    const counters = await db.send(
      new GetCommand({ TableName: tableName, Key: keys.galleryStats(fresh.tenant.tenantId, fresh.token) }),
    );
    expect(counters.Item?.personsImported).toBe(4);
  });

  it.each([
    ['an unknown token', 'nope', 404, 'gallery_not_found'],
    ['an ordinary gallery', 'ORDINARY', 400, 'not_a_groupshoot_gallery'],
  ])('refuses %s', async (_case, token, status, code) => {
    const answer = await api.call(path(token === 'ORDINARY' ? studio.ordinaryToken : token), {
      headers: studio.serverHeaders,
    });
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(code);
  });
});
