import { type HrExportQueue, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { ulid } from 'ulid';
import { handler as ingestPhoto } from '../../../functions/photos/sorting/ingest-photo';
import { CHECKIN_ACTIONS } from '#lib/http/group-shoot-actions';
import { resetClock, setClock } from '#lib/platform/clock';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { addPackage, addShootingDay, createGallery, putFormField } from '#lib/galleries/store/galleries';
import { createTenant, updateTenantSettings } from '#lib/tenants/store/tenants';
import { photoObjectKey } from '#lib/platform/media-keys';
import { randomBase62, randomToken } from '#lib/platform/secret-values';
import { type Route, pathsOf, routes } from '#lib/http/routes';
import { signPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import { signUnsubscribeLink } from '#lib/photos/links/rules/unsubscribe-link-token';
import { getPerson } from '#lib/persons/store/persons';
import { type ApiAnswer, useLocalApi } from '../../support/local-api';
import { uniqueSlug } from '../../support/factories';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../../support/media';
import { useStripeEmulator } from '../../support/stripe';

/**
 * Tenant isolation (issue 9): every server-side endpoint crossed with another tenant's key,
 * another tenant's gallery token and another gallery's personId is refused and reveals
 * nothing; the public and webhook routes likewise. The matrix is built from the route table,
 * so a new route is covered (or, for public and webhook routes, flagged) without editing this file.
 *
 * Two tenants: Alpha with galleries alpha1 and alpha2, Bravo with gallery bravo1 (holding a
 * pending paid reservation) and an ordinary gallery. Every name, email, label and ID seeded is
 * recognisable, and every refusal is searched for all of them.
 */

const api = useLocalApi();
const stripe = useStripeEmulator(api);

// A standing clock, moved a minute and a second before each test: each test starts with a full
// rate-limit bucket for every key, however slow the machine.
let clockNow = Date.now();
beforeAll(() => setClock(() => clockNow));
beforeEach(() => {
  clockNow += 61_000;
});
afterAll(() => resetClock());

interface Person {
  personId: string;
  name: string;
  email: string | null;
  employeeId: string | null;
  code: string;
  shootingDayId: string | null;
  source: 'import' | 'checkin';
}

interface SeededGallery {
  label: string;
  token: string;
  galleryName: string;
  consentText: string;
  dayId: string;
  dayLabel: string;
  freePackage: { id: string; name: string; description: string };
  paidPackage: { id: string; name: string; description: string };
  field: { key: string; label: string };
  persons: Person[];
  /** The person with a photo, and that photo. */
  photographed: Person;
  photo: { photoId: string; fileName: string };
  /** An HR export of the gallery (queued: nothing builds it here). */
  exportId: string;
  /** Spots held by pending paid reservations. */
  reservedSpots: number;
  /** Further values only this gallery's owner may see (order, checkout tokens). */
  extra: string[];
}

interface SeededTenant {
  label: string;
  slug: string;
  tenantId: string;
  name: string;
  apiKey: string;
  keyId: string;
  stripeAccountId: string;
  ordinary: { token: string; galleryName: string };
  serverHeaders: Record<string, string>;
  publicHeaders: Record<string, string>;
}

/** Employee ID that one person of every gallery has: filters must not cross galleries. */
const SHARED_EMPLOYEE_ID = 'SHARED-1';

let alpha: SeededTenant;
let bravo: SeededTenant;
let alpha1: SeededGallery;
let alpha2: SeededGallery;
let bravo1: SeededGallery;
let replacedExportQueue: HrExportQueue | undefined;
afterAll(() => useHrExportQueue(replacedExportQueue));
let bravoOrder: { orderId: string; statusToken: string; retryToken: string; sessionId: string };

const ownerOf = (gallery: SeededGallery): SeededTenant => (gallery === bravo1 ? bravo : alpha);

async function seedTenant(label: string): Promise<SeededTenant> {
  const slug = uniqueSlug(label.toLowerCase());
  const tenant = await createTenant({ slug, name: `${label} Photo Studio`, plan: 'creator' });
  const { secret, record } = await createApiKey(tenant.tenantId, `${label} key`);
  const stripeAccountId = `acct_${label.toLowerCase()}${randomBase62(10)}`;
  await updateTenantSettings(slug, { paymentAccessApproved: true, stripeAccountId });
  const ordinary = await createGallery(tenant.tenantId, {
    galleryName: `${label} Portfolio Gallery`,
    isGroupShoot: false,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: false, hrExport: false },
  });
  return {
    label,
    slug,
    tenantId: tenant.tenantId,
    name: tenant.name,
    apiKey: secret,
    keyId: record.keyId,
    stripeAccountId,
    ordinary: { token: ordinary.token, galleryName: ordinary.galleryName },
    serverHeaders: { 'X-Tenant-Slug': slug, Authorization: `Bearer ${secret}` },
    publicHeaders: { 'X-Tenant-Slug': slug },
  };
}

async function seedGallery(owner: SeededTenant, label: string): Promise<SeededGallery> {
  const { tenantId } = owner;
  const gallery = await createGallery(tenantId, {
    galleryName: `${label} Gallery`,
    isGroupShoot: true,
    selfieEnabled: true,
    selfieRequired: false,
    consentRequired: true,
    consentText: `${label} consent text`,
    showShootingDaySelector: true,
    granularConsents: { face: false, notification: false, hrExport: true },
    photoAccess: { codeAndEmail: true, codeAndEmployeeId: false },
  });
  const token = gallery.token;
  const day = await addShootingDay(tenantId, token, {
    date: '2027-06-01',
    label: `${label} day`,
    startTime: '09:00',
    endTime: '17:00',
    maxPersons: 20,
  });
  const freePackage = await addPackage(tenantId, token, {
    name: `${label} free package`,
    description: `${label} free description`,
    price: 0,
    currency: 'eur',
    position: 1,
  });
  const paidPackage = await addPackage(tenantId, token, {
    name: `${label} premium package`,
    description: `${label} premium description`,
    price: 2500,
    currency: 'eur',
    position: 2,
  });
  const field = await putFormField(tenantId, token, {
    key: 'custom',
    label: `${label} shirt size`,
    type: 'text',
    required: false,
    enabled: true,
    position: 1,
  });

  const seeded: SeededGallery = {
    label,
    token,
    galleryName: gallery.galleryName,
    consentText: gallery.consentText!,
    dayId: day.id,
    dayLabel: day.label,
    freePackage,
    paidPackage,
    field: { key: field.key, label: field.label },
    persons: [],
    photographed: undefined as unknown as Person,
    photo: undefined as unknown as { photoId: string; fileName: string },
    exportId: '',
    reservedSpots: 0,
    extra: [],
  };
  const slug = label.toLowerCase();
  const imported = await importInto(seeded, owner.serverHeaders, [
    { name: `${label} Person One`, email: `one@${slug}.example`, employeeId: `${label}-E1`, shootingDayId: day.id },
    { name: `${label} Person Two`, email: `two@${slug}.example`, employeeId: `${label}-E2` },
    { name: `${label} Namesake`, email: `namesake@${slug}.example`, employeeId: SHARED_EMPLOYEE_ID },
  ]);
  await checkinInto(seeded, owner, {
    name: `${label} Walk-in`,
    email: `walkin@${slug}.example`,
    employeeId: `${label}-W1`,
  });

  seeded.photographed = imported[0]!;
  const fileName = `${slug}-portrait.jpg`;
  const objectKey = photoObjectKey({ tenantId, token, personId: seeded.photographed.personId, fileName });
  await uploadObject(objectKey, makeJpeg(16, 12));
  await ingestPhoto(objectCreatedEvent(objectKey, new Date(clockNow).toISOString()));
  const photos = await api.call(`/groupshoot/${token}/persons/${seeded.photographed.personId}/photos`, {
    headers: owner.serverHeaders,
  });
  expect(photos.body.photos).toHaveLength(1);
  seeded.photo = { photoId: photos.body.photos[0].photoId, fileName };
  const created = await api.call(`/groupshoot/${token}/hr-exports`, {
    method: 'POST',
    headers: owner.serverHeaders,
    body: {},
  });
  expect(created.status).toBe(202);
  seeded.exportId = created.body.exportId;
  return seeded;
}

/** Imports through the API and records the persons stored, so listings can be held against them. */
async function importInto(
  gallery: SeededGallery,
  headers: Record<string, string>,
  rows: Record<string, unknown>[],
): Promise<Person[]> {
  const answer = await api.call(`/groupshoot/${gallery.token}/persons`, {
    method: 'POST',
    headers,
    body: { persons: rows },
  });
  expect(answer.status).toBe(200);
  expect(answer.body.imported).toBe(rows.length);
  const persons: Person[] = answer.body.persons.map((person: Omit<Person, 'source'>) => ({
    ...person,
    source: 'import',
  }));
  gallery.persons.push(...persons);
  return persons;
}

function checkinBody(gallery: SeededGallery, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    action: 'submitCheckin',
    token: gallery.token,
    consentGiven: true,
    shootingDayId: gallery.dayId,
    selectedPackageId: gallery.freePackage.id,
    customFields: { [gallery.field.key]: 'M' },
    ...fields,
  };
}

async function checkinInto(
  gallery: SeededGallery,
  owner: SeededTenant,
  fields: { name: string; email: string; employeeId?: string },
): Promise<ApiAnswer> {
  const answer = await api.call('/group-shoot', {
    method: 'POST',
    headers: owner.publicHeaders,
    body: checkinBody(gallery, fields),
  });
  expect(answer.status).toBe(200);
  gallery.persons.push({
    personId: answer.body.personId,
    code: answer.body.code,
    name: fields.name,
    email: fields.email,
    employeeId: fields.employeeId ?? null,
    shootingDayId: gallery.dayId,
    source: 'checkin',
  });
  return answer;
}

beforeAll(async () => {
  // HR exports are queued, not built, here.
  replacedExportQueue = useHrExportQueue({ send: async () => undefined });
  [alpha, bravo] = await Promise.all([seedTenant('Alpha'), seedTenant('Bravo')]);
  [alpha1, alpha2, bravo1] = await Promise.all([
    seedGallery(alpha, 'AlphaOne'),
    seedGallery(alpha, 'AlphaTwo'),
    seedGallery(bravo, 'BravoOne'),
  ]);
  const reserved = await api.call('/group-shoot', {
    method: 'POST',
    headers: bravo.publicHeaders,
    body: checkinBody(bravo1, {
      name: 'BravoOne Payer',
      email: 'payer@bravoone.example',
      selectedPackageId: bravo1.paidPackage.id,
      termsAccepted: true,
    }),
  });
  expect(reserved.status).toBe(200);
  bravoOrder = {
    orderId: reserved.body.orderId,
    statusToken: reserved.body.statusToken,
    retryToken: reserved.body.retryToken,
    sessionId: reserved.body.checkoutUrl.split('/').pop(),
  };
  bravo1.reservedSpots += 1;
  bravo1.extra.push('BravoOne Payer', 'payer@bravoone.example', ...Object.values(bravoOrder));
});

// ---------------------------------------------------------------------------------------------
// What must not show: every value of a gallery, or of a tenant, that its owner alone may see.

function gallerySecrets(gallery: SeededGallery): string[] {
  return [
    gallery.token,
    gallery.galleryName,
    gallery.consentText,
    gallery.dayId,
    gallery.dayLabel,
    ...[gallery.freePackage, gallery.paidPackage].flatMap((pkg) => [pkg.id, pkg.name, pkg.description]),
    gallery.field.key,
    gallery.field.label,
    gallery.photo.photoId,
    gallery.photo.fileName,
    ...gallery.persons.flatMap((person) => [
      person.personId,
      person.name,
      person.email,
      person.employeeId,
      person.code,
    ]),
    ...gallery.extra,
  ].filter((value): value is string => typeof value === 'string' && value !== SHARED_EMPLOYEE_ID);
}

function tenantSecrets(tenant: SeededTenant): string[] {
  return [
    tenant.slug,
    tenant.tenantId,
    tenant.name,
    tenant.apiKey,
    tenant.keyId,
    tenant.stripeAccountId,
    tenant.ordinary.token,
    tenant.ordinary.galleryName,
  ];
}

const everything = () => [
  ...tenantSecrets(alpha),
  ...tenantSecrets(bravo),
  ...[alpha1, alpha2, bravo1].flatMap(gallerySecrets),
];

/** What the owner of a gallery may see of others' data when it reads its own gallery: nothing. */
const foreignTo = (gallery: SeededGallery) => {
  const others = [alpha1, alpha2, bravo1].filter((other) => other !== gallery).flatMap(gallerySecrets);
  return [...others, ...tenantSecrets(ownerOf(gallery) === alpha ? bravo : alpha)];
};

interface Request {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

const send = (request: Request) => api.call(request.path, request);

/**
 * The secrets found in an answer (body and headers). A value the request itself carries is no
 * leak, nor is one the answer may hold as its own (`allowed`). Short values (access codes) are
 * searched as whole JSON strings, so a random signature cannot match them by chance.
 */
function leaks(answer: ApiAnswer, request: Request, forbidden: string[], allowed: string[] = []): string[] {
  const sent = [request.path, ...Object.values(request.headers), JSON.stringify(request.body ?? null)].join('\n');
  const body = JSON.stringify(answer.body);
  const headers = [...answer.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  const own = new Set(allowed);
  return [...new Set(forbidden)].filter(
    (secret) =>
      !own.has(secret) &&
      !sent.includes(secret) &&
      (secret.length >= 8 ? body.includes(secret) || headers.includes(secret) : body.includes(JSON.stringify(secret))),
  );
}

function expectError(answer: ApiAnswer, status: number, error: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({
    status,
    body: { ok: false, error, message: expect.any(String), requestId: expect.any(String) },
  });
  expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
}

/** What a caller can observe of an error, apart from its request ID and rate-limit counts. */
const appearance = (answer: ApiAnswer) => ({
  status: answer.status,
  error: answer.body?.error,
  message: answer.body?.message,
  bodyMembers: Object.keys(answer.body ?? {}).sort(),
  headerNames: [...answer.headers.keys()].filter((name) => name !== 'date').sort(),
});

/** Refused as an unknown value would be, and with nothing of anyone's data in the answer. */
async function expectRefusedLikeUnknown(
  foreign: Request,
  unknown: Request,
  status: number,
  error: string,
): Promise<void> {
  const foreignAnswer = await send(foreign);
  const unknownAnswer = await send(unknown);
  expectError(foreignAnswer, status, error);
  expect(appearance(foreignAnswer)).toEqual(appearance(unknownAnswer));
  expect(leaks(foreignAnswer, foreign, everything())).toEqual([]);
}

it("finds Bravo's data where it is: the leak search is not blind", async () => {
  const request = { method: 'GET', path: `/groupshoot/${bravo1.token}/persons`, headers: bravo.serverHeaders };
  const found = leaks(await send(request), request, everything());
  const photographed = bravo1.photographed;
  expect(found).toEqual(
    expect.arrayContaining([photographed.personId, photographed.name, photographed.email, photographed.code]),
  );
});

const unknownToken = () => randomToken(16);
const unknownPersonId = () => `per_${ulid().toLowerCase()}`;
const unknownApiKey = () => `gsk_${randomBase62(40)}`;
const bearer = (slug: string, key: string) => ({ 'X-Tenant-Slug': slug, Authorization: `Bearer ${key}` });

// ---------------------------------------------------------------------------------------------

const serverCases = (routes as readonly Route[])
  .filter((route) => route.access === 'server')
  .flatMap((route) =>
    pathsOf(route).map((template) => ({ route, template, hasPerson: template.includes('{personId}') })),
  );

/** Bodies for server-side POST routes; a route missing here is sent an empty object. */
const serverBodies: Record<string, () => unknown> = {
  importPersons: () => ({
    persons: [{ name: 'Isolation Probe', email: 'probe@isolation.example', employeeId: 'PROBE-1' }],
  }),
  createUploads: () => ({
    files: [
      { path: 'isolation/IMG_0001.jpg', size: 10 },
      { path: 'isolation/large.jpg', size: 9 * 1024 * 1024 },
    ],
  }),
  completeUploads: () => ({ files: [{ path: 'isolation/large.jpg', uploadId: 'isolation-upload', action: 'abort' }] }),
};

function serverRequest(
  route: Route,
  template: string,
  target: { token: string; personId: string; exportId?: string },
  headers: Record<string, string>,
): Request {
  return {
    method: route.method,
    path: template
      .replace('{token}', target.token)
      .replace('{personId}', target.personId)
      .replace('{exportId}', target.exportId ?? 'hrx_01m95h2r4k6m8p0r2t4v6x8z0b'),
    headers,
    body: route.method === 'POST' ? (serverBodies[route.id]?.() ?? {}) : undefined,
  };
}

const galleryTarget = (gallery: SeededGallery) => ({
  token: gallery.token,
  personId: gallery.photographed.personId,
  exportId: gallery.exportId,
});

/** Credentials that belong together nowhere; each names the gallery it is aimed at. */
const credentialCrossings = [
  {
    crossing: "Bravo's key with Alpha's slug on Alpha's gallery",
    slug: () => alpha.slug,
    key: () => bravo.apiKey,
    gallery: () => alpha1,
  },
  {
    crossing: "Alpha's key with Bravo's slug on Alpha's gallery",
    slug: () => bravo.slug,
    key: () => alpha.apiKey,
    gallery: () => alpha1,
  },
  {
    crossing: "Alpha's key with Bravo's slug on Bravo's gallery",
    slug: () => bravo.slug,
    key: () => alpha.apiKey,
    gallery: () => bravo1,
  },
  {
    crossing: "Bravo's key with Alpha's slug on Bravo's gallery",
    slug: () => alpha.slug,
    key: () => bravo.apiKey,
    gallery: () => bravo1,
  },
];

describe.each(serverCases)('server-side $route.method $template', ({ route, template, hasPerson }) => {
  it.each(credentialCrossings)(
    'refuses $crossing with 401 invalid_api_key, as for an unknown key',
    async ({ slug, key, gallery }) => {
      const target = galleryTarget(gallery());
      await expectRefusedLikeUnknown(
        serverRequest(route, template, target, bearer(slug(), key())),
        serverRequest(route, template, target, bearer(slug(), unknownApiKey())),
        401,
        'invalid_api_key',
      );
    },
  );

  it("refuses Bravo's key sent as X-Api-Key with Alpha's slug", async () => {
    const target = galleryTarget(alpha1);
    await expectRefusedLikeUnknown(
      serverRequest(route, template, target, { 'X-Tenant-Slug': alpha.slug, 'X-Api-Key': bravo.apiKey }),
      serverRequest(route, template, target, { 'X-Tenant-Slug': alpha.slug, 'X-Api-Key': unknownApiKey() }),
      401,
      'invalid_api_key',
    );
  });

  it("gives Bravo's gallery token 404 gallery_not_found with Alpha's key, as an unknown token", async () => {
    await expectRefusedLikeUnknown(
      serverRequest(route, template, galleryTarget(bravo1), alpha.serverHeaders),
      serverRequest(route, template, { token: unknownToken(), personId: unknownPersonId() }, alpha.serverHeaders),
      404,
      'gallery_not_found',
    );
  });

  // An ordinary gallery of one's own is 400 not_a_groupshoot_gallery; another tenant's must not say so.
  it("gives Bravo's ordinary gallery token 404 gallery_not_found with Alpha's key, as an unknown token", async () => {
    await expectRefusedLikeUnknown(
      serverRequest(
        route,
        template,
        { token: bravo.ordinary.token, personId: bravo1.photographed.personId },
        alpha.serverHeaders,
      ),
      serverRequest(route, template, { token: unknownToken(), personId: unknownPersonId() }, alpha.serverHeaders),
      404,
      'gallery_not_found',
    );
  });

  if (hasPerson) {
    it.each([
      { owner: 'another gallery of the same tenant', person: () => alpha2.photographed },
      { owner: "another tenant's gallery", person: () => bravo1.photographed },
    ])('gives a person of $owner 404 person_not_found, as an unknown person', async ({ person }) => {
      await expectRefusedLikeUnknown(
        serverRequest(route, template, { token: alpha1.token, personId: person().personId }, alpha.serverHeaders),
        serverRequest(route, template, { token: alpha1.token, personId: unknownPersonId() }, alpha.serverHeaders),
        404,
        'person_not_found',
      );
    });
  }

  // The control: the same request with matching credentials succeeds, so the refusals above are
  // refusals of the crossing, and the owner's answer holds nothing of other galleries or tenants.
  it("serves Alpha's own gallery with Alpha's key, with nothing of other galleries in it", async () => {
    const request = serverRequest(route, template, galleryTarget(alpha1), alpha.serverHeaders);
    const answer = await send(request);
    expect(answer.status).toBe(route.successStatus ?? 200);
    expect(answer.body.galleryToken).toBe(alpha1.token);
    if (route.id === 'importPersons') {
      alpha1.persons.push(
        ...answer.body.persons.map((person: Omit<Person, 'source'>) => ({ ...person, source: 'import' as const })),
      );
    }
    expect(leaks(answer, request, foreignTo(alpha1), gallerySecrets(alpha1))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------

const tokenCrossings = [
  {
    crossing: "Bravo's token with Alpha's slug",
    slug: () => alpha.slug,
    token: () => bravo1.token,
    gallery: () => bravo1,
  },
  {
    crossing: "Bravo's ordinary token with Alpha's slug",
    slug: () => alpha.slug,
    token: () => bravo.ordinary.token,
    gallery: () => bravo1,
  },
  {
    crossing: "Alpha's token with Bravo's slug",
    slug: () => bravo.slug,
    token: () => alpha1.token,
    gallery: () => alpha1,
  },
];

/** How each public route is crossed with another tenant's data; a new public route fails the coverage test until added. */
const publicCases: Record<string, () => void> = {
  getCheckinInfo() {
    it.each(tokenCrossings)('gives $crossing 404 gallery_not_found, as an unknown token', async ({ slug, token }) => {
      await expectRefusedLikeUnknown(
        { method: 'GET', path: `/group-shoot/checkin/${token()}`, headers: { 'X-Tenant-Slug': slug() } },
        { method: 'GET', path: `/group-shoot/checkin/${unknownToken()}`, headers: { 'X-Tenant-Slug': slug() } },
        404,
        'gallery_not_found',
      );
    });

    it("shows Alpha's gallery to Alpha's slug with only its own days, packages and fields", async () => {
      const request = { method: 'GET', path: `/group-shoot/checkin/${alpha1.token}`, headers: alpha.publicHeaders };
      const answer = await send(request);
      expect(answer.status).toBe(200);
      expect(answer.body.shootingDays.map((day: { id: string }) => day.id)).toEqual([alpha1.dayId]);
      expect(answer.body.packages.map((pkg: { id: string }) => pkg.id)).toEqual([
        alpha1.freePackage.id,
        alpha1.paidPackage.id,
      ]);
      expect(answer.body.formFields.map((field: { key: string }) => field.key)).toEqual([alpha1.field.key]);
      expect(leaks(answer, request, foreignTo(alpha1), gallerySecrets(alpha1))).toEqual([]);
    });
  },

  submitCheckin() {
    it.each(tokenCrossings)(
      'gives a check-in with $crossing 404 gallery_not_found, as an unknown token',
      async ({ slug, token, gallery }) => {
        // Otherwise valid for the gallery the token names: only the tenant is wrong.
        const body = checkinBody(gallery(), { name: 'Intruder Ivan', email: 'ivan@intruder.example' });
        const headers = { 'X-Tenant-Slug': slug() };
        await expectRefusedLikeUnknown(
          { method: 'POST', path: '/group-shoot', headers, body: { ...body, token: token() } },
          { method: 'POST', path: '/group-shoot', headers, body: { ...body, token: unknownToken() } },
          404,
          'gallery_not_found',
        );
      },
    );

    it.each([
      {
        what: "another gallery's shooting day",
        member: 'shootingDayId',
        value: () => alpha2.dayId,
        error: 'invalid_shooting_day',
      },
      {
        what: "another tenant's shooting day",
        member: 'shootingDayId',
        value: () => bravo1.dayId,
        error: 'invalid_shooting_day',
      },
      {
        what: "another gallery's package",
        member: 'selectedPackageId',
        value: () => alpha2.freePackage.id,
        error: 'package_not_found',
      },
      {
        what: "another tenant's package",
        member: 'selectedPackageId',
        value: () => bravo1.freePackage.id,
        error: 'package_not_found',
      },
      {
        what: "another tenant's paid package",
        member: 'selectedPackageId',
        value: () => bravo1.paidPackage.id,
        error: 'package_not_found',
      },
    ])(
      "refuses a check-in to Alpha's gallery naming $what with 400 $error, as an unknown ID",
      async ({ member, value, error }) => {
        const body = checkinBody(alpha1, {
          name: 'Crossing Carla',
          email: 'carla@crossing.example',
          termsAccepted: true,
        });
        await expectRefusedLikeUnknown(
          { method: 'POST', path: '/group-shoot', headers: alpha.publicHeaders, body: { ...body, [member]: value() } },
          {
            method: 'POST',
            path: '/group-shoot',
            headers: alpha.publicHeaders,
            body: { ...body, [member]: `${member === 'shootingDayId' ? 'day' : 'pkg'}_${ulid().toLowerCase()}` },
          },
          400,
          error,
        );
      },
    );

    it("checks in to Alpha's own gallery with an answer holding nothing of other galleries", async () => {
      const request = {
        method: 'POST',
        path: '/group-shoot',
        headers: alpha.publicHeaders,
        body: checkinBody(alpha1, { name: 'AlphaOne Latecomer', email: 'late@alphaone.example' }),
      };
      const answer = await send(request);
      expect(answer.status).toBe(200);
      alpha1.persons.push({
        personId: answer.body.personId,
        code: answer.body.code,
        name: 'AlphaOne Latecomer',
        email: 'late@alphaone.example',
        employeeId: null,
        shootingDayId: alpha1.dayId,
        source: 'checkin',
      });
      expect(leaks(answer, request, foreignTo(alpha1), gallerySecrets(alpha1))).toEqual([]);
    });

    it("gives Bravo's checkinStatus token with Alpha's slug 404 invalid_checkout_token, as an unknown token", async () => {
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'checkinStatus', statusToken: bravoOrder.statusToken },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'checkinStatus', statusToken: `gst_${randomBase62(32)}` },
        },
        404,
        'invalid_checkout_token',
      );
      const owner = await send({
        method: 'POST',
        path: '/group-shoot',
        headers: bravo.publicHeaders,
        body: { action: 'checkinStatus', statusToken: bravoOrder.statusToken },
      });
      expect(owner.body).toEqual(expect.objectContaining({ ok: true, orderId: bravoOrder.orderId, status: 'pending' }));
    });

    it("gives Bravo's participant's code and email (myPhotos) the answer of an unknown gallery with Alpha's slug, and of a wrong pair in Alpha's gallery", async () => {
      const participant = bravo1.photographed;
      const pair = { action: 'myPhotos', code: participant.code, email: participant.email };
      await expectRefusedLikeUnknown(
        { method: 'POST', path: '/group-shoot', headers: alpha.publicHeaders, body: { ...pair, token: bravo1.token } },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...pair, token: unknownToken() },
        },
        404,
        'gallery_not_found',
      );
      const unusedCode = ['ZZZZ', 'YYYY', 'XXXX'].find(
        (code) => !alpha1.persons.some((person) => person.code === code),
      )!;
      await expectRefusedLikeUnknown(
        { method: 'POST', path: '/group-shoot', headers: alpha.publicHeaders, body: { ...pair, token: alpha1.token } },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'myPhotos', token: alpha1.token, code: unusedCode, email: 'nobody@alpha.example' },
        },
        404,
        'photos_not_found',
      );
      const owner = await send({
        method: 'POST',
        path: '/group-shoot',
        headers: bravo.publicHeaders,
        body: { ...pair, token: bravo1.token },
      });
      expect(owner.body.photos.map((photo: { fileName: string }) => photo.fileName)).toEqual([bravo1.photo.fileName]);
    });

    it("gives a photo link of Bravo's participant the answer of an unknown gallery with Alpha's slug, and of a forged link in Alpha's gallery", async () => {
      const participant = bravo1.photographed;
      const { photoLink } = signPhotoLink(
        process.env.PHOTO_LINK_KEY!,
        { tenantId: bravo.tenantId, galleryToken: bravo1.token, personId: participant.personId },
        Date.now(),
      );
      const forged = `${participant.personId}.${photoLink.split('.')[1]}.${'A'.repeat(43)}`;
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'photosByLink', token: bravo1.token, photoLink },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'photosByLink', token: unknownToken(), photoLink },
        },
        404,
        'gallery_not_found',
      );
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'photosByLink', token: alpha1.token, photoLink },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'photosByLink', token: alpha1.token, photoLink: forged },
        },
        403,
        'photo_link_invalid',
      );
      const owner = await send({
        method: 'POST',
        path: '/group-shoot',
        headers: bravo.publicHeaders,
        body: { action: 'photosByLink', token: bravo1.token, photoLink },
      });
      expect(owner.body.photos.map((photo: { fileName: string }) => photo.fileName)).toEqual([bravo1.photo.fileName]);
    });

    it("gives a pick of Bravo's photo the answer of an unknown gallery with Alpha's slug, and of an unknown photo in Alpha's gallery, and records nothing", async () => {
      const bravoLink = signPhotoLink(
        process.env.PHOTO_LINK_KEY!,
        { tenantId: bravo.tenantId, galleryToken: bravo1.token, personId: bravo1.photographed.personId },
        Date.now(),
      ).photoLink;
      const alphaLink = signPhotoLink(
        process.env.PHOTO_LINK_KEY!,
        { tenantId: alpha.tenantId, galleryToken: alpha1.token, personId: alpha1.photographed.personId },
        Date.now(),
      ).photoLink;
      const pick = { action: 'pickPhoto', photoId: bravo1.photo.photoId };
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...pick, photoLink: bravoLink, token: bravo1.token },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...pick, photoLink: bravoLink, token: unknownToken() },
        },
        404,
        'gallery_not_found',
      );
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...pick, photoLink: alphaLink, token: alpha1.token },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...pick, photoId: 'pho_000000000000000000000000', photoLink: alphaLink, token: alpha1.token },
        },
        404,
        'photo_not_found',
      );
      const bravoPhotos = await send({
        method: 'GET',
        path: `/groupshoot/${bravo1.token}/persons/${bravo1.photographed.personId}/photos`,
        headers: bravo.serverHeaders,
      });
      const alphaPhotos = await send({
        method: 'GET',
        path: `/groupshoot/${alpha1.token}/persons/${alpha1.photographed.personId}/photos`,
        headers: alpha.serverHeaders,
      });
      expect([bravoPhotos.body.pickedPhotoId, alphaPhotos.body.pickedPhotoId]).toEqual([null, null]);
    });

    // Imported persons were never asked (null): a withdrawal would have recorded false, a consent given true.
    it.each([
      ['a face-consent withdrawal', { action: 'withdrawFaceConsent' }, 'faceConsent'],
      [
        'manageConsents',
        { action: 'manageConsents', consent: 'notificationConsent', given: true },
        'notificationConsent',
      ],
    ] as const)(
      "gives %s with Bravo's photo link the answer of an unknown gallery with Alpha's slug, and of a forged link in Alpha's gallery, and changes nothing",
      async (_what, action, consent) => {
        const bravoLink = signPhotoLink(
          process.env.PHOTO_LINK_KEY!,
          { tenantId: bravo.tenantId, galleryToken: bravo1.token, personId: bravo1.photographed.personId },
          Date.now(),
        ).photoLink;
        const forged = `${alpha1.photographed.personId}.${bravoLink.split('.')[1]}.${'A'.repeat(43)}`;
        const body = { ...action, photoLink: bravoLink };
        const asAlpha = (members: Record<string, unknown>) => ({
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...body, ...members },
        });
        await expectRefusedLikeUnknown(
          asAlpha({ token: bravo1.token }),
          asAlpha({ token: unknownToken() }),
          404,
          'gallery_not_found',
        );
        await expectRefusedLikeUnknown(
          asAlpha({ token: alpha1.token }),
          asAlpha({ photoLink: forged, token: alpha1.token }),
          403,
          'photo_link_invalid',
        );
        const consents = await Promise.all(
          [
            { tenantId: bravo.tenantId, token: bravo1.token, personId: bravo1.photographed.personId },
            { tenantId: alpha.tenantId, token: alpha1.token, personId: alpha1.photographed.personId },
          ].map(
            async ({ personId, ...scope }) =>
              (await getPerson(scope, personId, { consistent: true }))?.consents[consent],
          ),
        );
        expect(consents).toEqual([null, null]);
      },
    );

    it("answers sendPhotoLink for Bravo's participant's address in Alpha's gallery as for an unknown address, and with Alpha's slug as for an unknown gallery", async () => {
      const body = { action: 'sendPhotoLink', email: bravo1.photographed.email };
      await expectRefusedLikeUnknown(
        { method: 'POST', path: '/group-shoot', headers: alpha.publicHeaders, body: { ...body, token: bravo1.token } },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { ...body, token: unknownToken() },
        },
        404,
        'gallery_not_found',
      );
      const request = {
        method: 'POST',
        path: '/group-shoot',
        headers: alpha.publicHeaders,
        body: { ...body, token: alpha1.token },
      };
      const foreign = await send(request);
      const unknown = await send({ ...request, body: { ...body, token: alpha1.token, email: 'nobody@alpha.example' } });
      expect([foreign.status, foreign.body.photoLinkRequested]).toEqual([200, true]);
      expect(appearance(foreign)).toEqual(appearance(unknown));
      expect(leaks(foreign, request, everything())).toEqual([]);
    });

    it("gives Bravo's retryCheckout token with Alpha's slug 404 invalid_checkout_token and opens no session", async () => {
      const sessionsBefore = stripe.emulator.sessions.size;
      await expectRefusedLikeUnknown(
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'retryCheckout', retryToken: bravoOrder.retryToken },
        },
        {
          method: 'POST',
          path: '/group-shoot',
          headers: alpha.publicHeaders,
          body: { action: 'retryCheckout', retryToken: `grt_${randomBase62(32)}` },
        },
        404,
        'invalid_checkout_token',
      );
      expect(stripe.emulator.sessions.size).toBe(sessionsBefore);
      expect(stripe.emulator.sessions.get(bravoOrder.sessionId)?.status).toBe('open');
    });
  },

  checkinInfoPreflight() {
    it("answers the preflight for Bravo's token like the one for an unknown token", async () => {
      const foreign = await send({
        method: 'OPTIONS',
        path: `/group-shoot/checkin/${bravo1.token}`,
        headers: alpha.publicHeaders,
      });
      const unknown = await send({
        method: 'OPTIONS',
        path: `/group-shoot/checkin/${unknownToken()}`,
        headers: alpha.publicHeaders,
      });
      expect(foreign.status).toBeLessThan(300);
      expect(appearance(foreign)).toEqual(appearance(unknown));
      expect(
        leaks(
          foreign,
          { method: 'OPTIONS', path: `/group-shoot/checkin/${bravo1.token}`, headers: alpha.publicHeaders },
          everything(),
        ),
      ).toEqual([]);
    });
  },

  checkinPreflight() {
    it("answers the preflight with Bravo's slug like the one with Alpha's, naming no tenant", async () => {
      const request = { method: 'OPTIONS', path: '/group-shoot', headers: bravo.publicHeaders };
      const foreign = await send(request);
      const own = await send({ ...request, headers: alpha.publicHeaders });
      expect(foreign.status).toBeLessThan(300);
      expect(appearance(foreign)).toEqual(appearance(own));
      expect(leaks(foreign, request, everything())).toEqual([]);
    });
  },
};

/** Check-in actions crossed above (POST /group-shoot selects them by `action`). */
const crossedActions = [
  'submitCheckin',
  'checkinStatus',
  'retryCheckout',
  'myPhotos',
  'sendPhotoLink',
  'photosByLink',
  'pickPhoto',
  'withdrawFaceConsent',
  'manageConsents',
];

describe('public routes', () => {
  it('has an isolation case for every public route and every check-in action', () => {
    const publicRouteIds = (routes as readonly Route[])
      .filter((route) => route.access === 'public')
      .map((route) => route.id);
    expect(Object.keys(publicCases).sort()).toEqual([...publicRouteIds].sort());
    expect([...crossedActions].sort()).toEqual([...CHECKIN_ACTIONS].sort());
  });

  describe.each(Object.entries(publicCases))('%s', (_id, cases) => cases());
});

// ---------------------------------------------------------------------------------------------

describe('webhook routes', () => {
  it('has an isolation case for every webhook route', () => {
    expect((routes as readonly Route[]).filter((route) => route.access === 'webhook').map((route) => route.id)).toEqual(
      ['stripeWebhook'],
    );
  });

  it("ignores a payment of Bravo's reservation reported from Alpha's connected account", async () => {
    const { account: _account, ...session } = stripe.emulator.sessions.get(bravoOrder.sessionId)!;
    const forged = { ...session, status: 'complete', payment_status: 'paid' };
    const delivered = await stripe.emulator.deliver('checkout.session.completed', alpha.stripeAccountId, forged);
    const status = await send({
      method: 'POST',
      path: '/group-shoot',
      headers: bravo.publicHeaders,
      body: { action: 'checkinStatus', statusToken: bravoOrder.statusToken },
    });
    expect(delivered).toBe(200);
    expect(status.body.status).toBe('pending');
    // The listings below check that no person was created in either tenant.
  });
});

// ---------------------------------------------------------------------------------------------

describe('link routes', () => {
  it('has an isolation case for every link route', () => {
    expect((routes as readonly Route[]).filter((route) => route.access === 'link').map((route) => route.id)).toEqual([
      'unsubscribePage',
      'unsubscribe',
    ]);
  });

  it("refuses Bravo's unsubscribe link moved to Alpha's tenant or gallery, on its page and its POST, and withdraws nothing", async () => {
    const bravoLink = signUnsubscribeLink(
      process.env.PHOTO_LINK_KEY!,
      { tenantId: bravo.tenantId, galleryToken: bravo1.token, personId: bravo1.photographed.personId },
      Date.now(),
    );
    const personToken = bravoLink.split('.').slice(2).join('.');
    const moved = [
      `${alpha.tenantId}.${bravo1.token}.${personToken}`,
      `${bravo.tenantId}.${alpha1.token}.${personToken}`,
      `${alpha.tenantId}.${alpha1.token}.${personToken}`,
    ];
    for (const link of moved) {
      const page = await send({ method: 'GET', path: `/unsubscribe/${link}`, headers: {} });
      const posted = await send({
        method: 'POST',
        path: `/unsubscribe/${link}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect([link, page.status, page.body.error, posted.status, posted.body.error]).toEqual([
        link,
        403,
        'unsubscribe_link_invalid',
        403,
        'unsubscribe_link_invalid',
      ]);
    }
    const person = await getPerson({ tenantId: bravo.tenantId, token: bravo1.token }, bravo1.photographed.personId, {
      consistent: true,
    });
    expect(person?.consents.notificationConsent).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------

describe('cross-gallery references in an import', () => {
  it("imports rows naming other galleries' days without a day, and books nothing there", async () => {
    const daysOf = async (gallery: SeededGallery) =>
      (await api.call(`/groupshoot/${gallery.token}/days`, { headers: ownerOf(gallery).serverHeaders })).body
        .shootingDays[0].booked;
    const before = [await daysOf(alpha2), await daysOf(bravo1)];
    const imported = await importInto(alpha1, alpha.serverHeaders, [
      { name: 'AlphaOne Borrower Two', shootingDayId: alpha2.dayId },
      { name: 'AlphaOne Borrower Bravo', shootingDayId: bravo1.dayId },
    ]);
    expect(imported.map((person) => person.shootingDayId)).toEqual([null, null]);
    expect([await daysOf(alpha2), await daysOf(bravo1)]).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe.each([
  { gallery: 'alpha1', of: () => alpha1 },
  { gallery: 'alpha2', of: () => alpha2 },
  { gallery: 'bravo1', of: () => bravo1 },
])('what the owner of $gallery reads is its own, and all of it', ({ of }) => {
  const read = async (gallery: SeededGallery, path: string) => {
    const request = {
      method: 'GET',
      path: `/groupshoot/${gallery.token}${path}`,
      headers: ownerOf(gallery).serverHeaders,
    };
    const answer = await send(request);
    expect(answer.status).toBe(200);
    expect(leaks(answer, request, foreignTo(gallery), gallerySecrets(gallery))).toEqual([]);
    return answer.body;
  };

  // Runs after every test above: refused imports and check-ins, and the forged payment, created nobody.
  it('lists exactly the persons created in it', async () => {
    const gallery = of();
    const body = await read(gallery, '/persons?limit=500');
    const listed = body.persons.map((person: Person) => ({
      personId: person.personId,
      name: person.name,
      code: person.code,
      source: person.source,
    }));
    const expected = gallery.persons.map((person) => ({
      personId: person.personId,
      name: person.name,
      code: person.code,
      source: person.source,
    }));
    expect(listed.sort(byPersonId)).toEqual(expected.sort(byPersonId));
  });

  it('finds only its own person for an employee ID every gallery has', async () => {
    const gallery = of();
    const body = await read(gallery, `/persons?employeeId=${SHARED_EMPLOYEE_ID}`);
    const own = gallery.persons.filter((person) => person.employeeId === SHARED_EMPLOYEE_ID);
    expect(body.persons.map((person: Person) => person.personId)).toEqual(own.map((person) => person.personId));
  });

  it("finds nobody for other galleries' employee IDs", async () => {
    const gallery = of();
    const foreignIds = [alpha1, alpha2, bravo1]
      .filter((other) => other !== gallery)
      .flatMap((other) => other.persons.map((person) => person.employeeId))
      .filter((id): id is string => id !== null && id !== SHARED_EMPLOYEE_ID)
      .slice(0, 4);
    for (const employeeId of foreignIds) {
      expect((await read(gallery, `/persons?employeeId=${encodeURIComponent(employeeId)}`)).persons).toEqual([]);
    }
  });

  it('counts only its own persons, photos and orders in the statistics', async () => {
    const gallery = of();
    const body = await read(gallery, '/stats');
    const bySource = (source: Person['source']) => gallery.persons.filter((person) => person.source === source).length;
    expect(body.persons).toEqual({
      total: gallery.persons.length,
      bySource: { import: bySource('import'), checkin: bySource('checkin') },
      withSelfie: 0,
      withPhotos: 1,
    });
    expect(body.photos).toEqual({ total: 1, unassigned: 0, withheld: 0, cards: 0 });
    expect(body.orders).toEqual({ pending: gallery.reservedSpots, paid: 0, expired: 0, canceled: 0 });
    expect(body.shootingDays.map((day: { id: string }) => day.id)).toEqual([gallery.dayId]);
  });

  it('lists only its own shooting day, booked by its own persons', async () => {
    const gallery = of();
    const body = await read(gallery, '/days');
    const booked =
      gallery.persons.filter((person) => person.shootingDayId === gallery.dayId).length + gallery.reservedSpots;
    expect(
      body.shootingDays.map((day: { id: string; booked: number }) => ({ id: day.id, booked: day.booked })),
    ).toEqual([{ id: gallery.dayId, booked }]);
  });

  it('lists only its own form fields', async () => {
    const gallery = of();
    const body = await read(gallery, '/form-fields');
    expect(body.formFields.map((field: { key: string; label: string }) => [field.key, field.label])).toEqual([
      [gallery.field.key, gallery.field.label],
    ]);
  });

  it("lists only its own person's photo, under its own tenant and gallery", async () => {
    const gallery = of();
    const body = await read(gallery, `/persons/${gallery.photographed.personId}/photos`);
    expect(body.photos.map((photo: { photoId: string; fileName: string }) => [photo.photoId, photo.fileName])).toEqual([
      [gallery.photo.photoId, gallery.photo.fileName],
    ]);
    expect(new URL(body.photos[0].url).pathname).toContain(
      `/${ownerOf(gallery).tenantId}/${gallery.token}/${gallery.photographed.personId}/`,
    );
  });
});

function byPersonId(a: { personId: string }, b: { personId: string }): number {
  return a.personId.localeCompare(b.personId);
}
