import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { createApiKey } from '#lib/tenants/store/api-keys';
import {
  type NewGallery,
  addShootingDay,
  createGallery,
  getGalleryConfiguration,
} from '#lib/galleries/store/galleries';
import { importPersons } from '#lib/persons/import-persons';
import { parseImportRequest } from '#lib/persons/person-schemas';
import { type Tenant, createTenant, getTenantBySlug } from '#lib/tenants/store/tenants';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { inboxObjectKey, photoIdOf } from '#lib/platform/media-keys';
import type { DemoData } from '../local/seed-demo';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { personKeys } from '#lib/persons/store/keys';
import { putMediaObject } from '#lib/platform/media-bucket';
import { photoObjectKey } from '#lib/platform/media-keys';
import { recordPhoto } from '#lib/photos/common/store/photos';

/** The local API and the demo tenant the bench calls it as. */
export type BenchApi = Awaited<ReturnType<typeof connectBenchApi>>;

/** A client of the local API at `baseUrl` (ending in /v1), as the seeded demo tenant. */
export async function connectBenchApi(baseUrl: string, demo: DemoData) {
  const tenant = await getTenantBySlug(demo.tenantSlug);
  if (!tenant) throw new Error(`Demo tenant ${demo.tenantSlug} not found`);
  let keyNumber = 0;
  return {
    baseUrl,
    demo,
    tenant,
    tenantId: tenant.tenantId,
    /** The demo gallery with its day without capacity, which imports and check-ins never fill. */
    openDay: { token: demo.galleryToken, dayId: demo.shootingDayIds[2]! },
    /** Sends one request as the demo tenant, or as `tenantSlug`: callApi. */
    call(path: string, options: { method?: string; body?: unknown; apiKey?: string; tenantSlug?: string } = {}) {
      return callApi(baseUrl, options.tenantSlug ?? demo.tenantSlug, path, options);
    },
    /** `count` persons of importRowsFor through POST persons into the gallery `token`, on its day `dayId`. */
    importPersons(apiKey: string, { token, dayId }: { token: string; dayId: string }, count: number, prefix: string) {
      const body = { persons: importRowsFor(count, dayId, prefix) };
      return this.call(`/groupshoot/${token}/persons`, { method: 'POST', apiKey, body });
    },
    /** A new API key of the demo tenant: each allows a burst of 60 requests, so each batch of requests gets its own. */
    async freshApiKey() {
      keyNumber += 1;
      return (await createApiKey(tenant.tenantId, `Bench key ${keyNumber}`)).secret;
    },
  };
}

/** Sends one request (a POST where it has a body) to the API at `baseUrl` as the tenant `tenantSlug` and reads the whole answer; throws unless it is 2xx. */
export async function callApi(
  baseUrl: string,
  tenantSlug: string,
  path: string,
  { method, body, apiKey }: { method?: string; body?: unknown; apiKey?: string } = {},
) {
  const headers: Record<string, string> = { 'X-Tenant-Slug': tenantSlug };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const verb = method ?? (body === undefined ? 'GET' : 'POST');
  const response = await fetch(`${baseUrl}${path}`, {
    method: verb,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${verb} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** `count` import rows, each on `shootingDayId`, with unique names, emails and employee IDs. */
export function importRowsFor(count: number, shootingDayId: string, prefix: string) {
  return Array.from({ length: count }, (_, index) => ({
    name: `Bench Person ${prefix}-${index}`,
    email: `bench-${prefix}-${index}@example.com`,
    employeeId: `${prefix}-${index}`,
    shootingDayId,
  }));
}

/** `persons` persons of importRowsFor through the import use case, 500 at a time, on the gallery's day; with their rows. */
export async function importInto(tenant: Tenant, { token, dayId }: { token: string; dayId: string }, persons: number) {
  const configuration = (await getGalleryConfiguration(tenant.tenantId, token))!;
  const imported = [];
  for (let start = 0; start < persons; start += 500) {
    const rows = importRowsFor(Math.min(500, persons - start), dayId, `p${start}`);
    const answer = await importPersons(tenant, configuration, parseImportRequest({ persons: rows }));
    imported.push(...answer.persons.map((person, index) => ({ ...person, ...rows[index]! })));
  }
  return imported;
}

/** A group-shoot gallery of the tenant with one day without capacity (`settings` change the defaults), for a bench scenario of its own. */
export async function createBenchGallery(
  tenantId: string,
  galleryName: string,
  settings: Partial<NewGallery> = {},
): Promise<{ token: string; dayId: string }> {
  const gallery = await createGallery(tenantId, {
    galleryName,
    isGroupShoot: true,
    selfieEnabled: false,
    selfieRequired: false,
    consentRequired: false,
    showShootingDaySelector: true,
    granularConsents: { face: false, notification: false, hrExport: false },
    ...settings,
  });
  const day = await addShootingDay(tenantId, gallery.token, {
    date: '2030-01-15',
    label: 'Bench day',
    startTime: '09:00',
    endTime: '17:00',
  });
  return { token: gallery.token, dayId: day.id };
}

/** A new tenant (`bench-<label>-…`, which this process has never read) with an API key and a bench gallery: a studio of a scenario's own. */
export async function createBenchStudio(label: string, gallerySettings?: Partial<NewGallery>) {
  const slug = `bench-${label}-${randomBytes(3).toString('hex')}`;
  const tenant = await createTenant({ slug, name: `Bench ${label}`, plan: 'creator' });
  const { secret: apiKey } = await createApiKey(tenant.tenantId, `Bench ${label}`);
  const gallery = await createBenchGallery(tenant.tenantId, `Bench ${label}`, gallerySettings);
  return { tenant, tenantId: tenant.tenantId, slug, apiKey, ...gallery };
}

/** The body of a check-in of participant `id` to the day `shootingDayId` of the gallery `token`. */
export function checkinBody(token: string, shootingDayId: string, id: string) {
  return {
    action: 'submitCheckin',
    token,
    name: `Bench Participant ${id}`,
    email: `bench-${id}@example.com`,
    shootingDayId,
  };
}

/** A free check-in of participant `id` to the demo gallery's day without capacity, which never fills. */
export function demoCheckin(demo: DemoData, id: string) {
  const { galleryToken, shootingDayIds, packageIds } = demo;
  const fields = { employeeId: `bench-${id}`, consentGiven: true, selectedPackageId: packageIds.free };
  return { ...checkinBody(galleryToken, shootingDayIds[2]!, id), ...fields };
}

/** What the ingest knows of a shoot photo at `path` (`<camera>/<file name>`) in the gallery's inbox: placeShootPhoto's facts. */
export function shootPhotoFacts(
  scope: GalleryScope,
  path: string,
  capturedAt: string,
  { width, height }: { width: number | null; height: number | null } = { width: null, height: null },
) {
  const objectKey = inboxObjectKey({ ...scope, path });
  const [camera, fileName] = path.split('/') as [string, string];
  return {
    photoId: photoIdOf(objectKey),
    objectKey,
    path,
    fileName,
    camera,
    capturedAt,
    width,
    height,
    uploadedAt: capturedAt,
  };
}

/** POST /group-shoot given to its function in this process, as API Gateway would, from `sourceIp`; the status and the parsed body. */
export async function postGroupShootInProcess(
  tenantSlug: string,
  sourceIp: string,
  body: Record<string, unknown>,
  nowMs = Date.now(),
): Promise<{ status: number; body: GroupShootAnswer }> {
  const { handler } = await import('../../functions/checkin/post-group-shoot');
  const { lambdaContext, publicPostEvent } = await import('../local/api-gateway-event');
  const route = { routeKey: 'POST /group-shoot', path: '/group-shoot' };
  const event = publicPostEvent(route, { 'x-tenant-slug': tenantSlug }, sourceIp, body, nowMs);
  const answer = (await handler(event, lambdaContext('bench'))) as APIGatewayProxyStructuredResultV2;
  return { status: answer.statusCode ?? 200, body: JSON.parse(String(answer.body)) as GroupShootAnswer };
}

/** What the bench reads of a POST /group-shoot answer. */
type GroupShootAnswer = { error?: string; photos?: unknown[]; photoLinkRequested?: boolean };

/**
 * An imported person's `consents` (e.g. `hrExportConsent`), as a check-in with them ticked stores
 * them, written straight (an import never consents), and a portrait: its object, and its record
 * as ingest writes it.
 */
export async function consentingPortrait(scope: GalleryScope, personId: string, jpeg: Buffer, consents: string[]) {
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: personKeys.person(scope.tenantId, scope.token, personId),
      UpdateExpression: `SET ${consents.map((consent) => `consents.${consent} = :true`).join(', ')}`,
      ExpressionAttributeValues: { ':true': true },
    }),
  );
  const objectKey = photoObjectKey({ ...scope, personId, fileName: 'portrait.jpg' });
  await putMediaObject(objectKey, jpeg, 'image/jpeg');
  const photo = { personId, objectKey, fileName: 'portrait.jpg', width: null, height: null, capturedAt: null };
  await recordPhoto(scope, { ...photo, photoId: photoIdOf(objectKey), createdAt: new Date().toISOString() });
}
