import { putFormField } from '#lib/galleries/store/galleries';
import { useLocalApi } from '../../support/local-api';
import { type TestTenant, createTestTenant } from '../../support/factories';

const api = useLocalApi();

describe.each([0, 1])('GET form-fields, path variant %i', (variant) => {
  let studio: TestTenant;
  const path = (token: string) =>
    [`/group-shoot/checkin/${token}/form-fields`, `/groupshoot/${token}/form-fields`][variant]!;
  let selectKey: string;

  beforeAll(async () => {
    studio = await createTestTenant();
    const put = (field: Parameters<typeof putFormField>[2]) =>
      putFormField(studio.tenant.tenantId, studio.token, field);
    await put({ key: 'phone', label: 'Phone', type: 'text', required: false, enabled: true, position: 3 });
    await put({ key: 'employeeId', label: 'Employee no.', type: 'text', required: true, enabled: true, position: 1 });
    await put({ key: 'notes', label: 'Notes', type: 'textarea', required: false, enabled: false, position: 2 });
    selectKey = (
      await put({
        key: 'custom',
        label: 'Size',
        type: 'select',
        required: false,
        enabled: true,
        position: 4,
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
      })
    ).key;
    await put({ key: 'custom', label: 'Age', type: 'number', required: false, enabled: true, position: 5 });
  });

  it('lists only enabled fields, in configured order, with options only on select fields', async () => {
    // Act
    const answer = await api.call(path(studio.token), { headers: studio.serverHeaders });
    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.galleryToken).toBe(studio.token);
    expect(answer.body.formFields).toEqual([
      { key: 'employeeId', label: 'Employee no.', type: 'text', required: true },
      { key: 'phone', label: 'Phone', type: 'text', required: false },
      {
        key: selectKey,
        label: 'Size',
        type: 'select',
        required: false,
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
      },
      { key: expect.stringMatching(/^custom-[0-9a-f-]{36}$/), label: 'Age', type: 'number', required: false },
    ]);
    expect(answer.body.formFields[3]).not.toHaveProperty('options');
    expect(selectKey).toMatch(/^custom-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('gives an empty list for a gallery without fields', async () => {
    const plain = await createTestTenant();
    const answer = await api.call(path(plain.token), { headers: plain.serverHeaders });
    expect(answer.body.formFields).toEqual([]);
  });

  it.each([
    ['an unknown token', () => 'nope', 404, 'gallery_not_found'],
    ["another tenant's gallery", () => 'OTHER', 404, 'gallery_not_found'],
    ['an ordinary gallery', () => studio.ordinaryToken, 400, 'not_a_groupshoot_gallery'],
  ])('refuses %s', async (_case, tokenOf, status, code) => {
    let token = tokenOf();
    if (token === 'OTHER') token = (await createTestTenant()).token;
    const answer = await api.call(path(token), { headers: studio.serverHeaders });
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(code);
  });

  it('gives 405 for another method', async () => {
    const answer = await api.call(path(studio.token), { method: 'POST', headers: studio.serverHeaders, body: {} });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET');
  });
});
