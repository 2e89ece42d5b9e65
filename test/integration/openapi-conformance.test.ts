import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import Ajv2020 from 'ajv/dist/2020';
import { handler as ingestPhoto } from '../../functions/photos/sorting/ingest-photo';
import { type HrExportQueue, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { createApiKey } from '#lib/tenants/store/api-keys';
import { photoObjectKey } from '#lib/platform/media-keys';
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';
import { buildOpenApiDocument } from '../../scripts/openapi/build-openapi';
import { useLocalApi } from '../support/local-api';
import { conformanceProblems } from '../support/openapi-conformance';
import { schemaArbitrary } from '../support/openapi-arbitraries';
import { type CheckinStudio, createCheckinStudio } from '../support/checkin-gallery';
import { makeJpeg, objectCreatedEvent, uploadObject } from '../support/media';

/**
 * Conformance to docs/openapi.json, property-based (issue 31): requests generated from the
 * document alone (its parameters, security and request bodies, every value one the document
 * allows), sent over HTTP to the local server under the real rate limits. Every answer:
 * - has a status the document lists for the operation, and a body its schema takes;
 * - is never a 5xx, and never 429 (there are enough keys and client addresses);
 * - for these valid requests, is no refusal of their shape (invalid_field, invalid_parameter,
 *   name_required, ...) unless a rule the document states in words says so (DOCUMENTED_RULES);
 *   refusals of state (404 for an unknown ID, 409 for a full day, ...) are documented answers.
 * And each operation succeeds at least once. Seeded and bounded: CONFORMANCE_SEED and
 * CONFORMANCE_RUNS change them; docs/architecture.md (Testing) has the figures of a run.
 */

const SEED = Number(process.env.CONFORMANCE_SEED ?? 31);
const RUNS_PER_OPERATION = Number(process.env.CONFORMANCE_RUNS ?? 30);
/** submitCheckin is seven actions in one operation: more runs, so each is met often. */
const RUNS_PER_ACTION_OPERATION = 4 * RUNS_PER_OPERATION;
const API_KEY_BUDGET_PER_MINUTE = 60;
const API_KEY_PLACEHOLDER = '{apiKey}';
/** Public budgets are per client address: requests come from this many loopback addresses in turn. */
const CLIENT_ADDRESSES = 24;

/** Refusals of a request's shape: a request the document takes must never get one... */
const SHAPE_REFUSALS = new Set([
  'invalid_field',
  'invalid_parameter',
  'invalid_json',
  'invalid_action',
  'invalid_idempotency_key',
  'missing_tenant_slug',
  'token_required',
  'name_required',
  'email_required',
  'persons_required',
  'too_many_persons',
  'files_required',
  'too_many_files',
  'api_key_required',
  'payload_too_large',
  'rate_limit_exceeded',
]);

/** ...unless the document says so in words, for the member named (`code:member`). */
const DOCUMENTED_RULES: Record<string, string> = {
  'invalid_parameter:cursor':
    'the cursor parameter: nextCursor of the previous page; any other value is 400 invalid_parameter',
  'invalid_field:returnUrl':
    'returnUrl: the check-in page Stripe returns to (an https URL on an origin the studio allowed)',
  'invalid_field:files': 'files: each path once',
  'invalid_field:capturedAt': 'capturedAt: format date-time (a real date, which a pattern cannot say)',
};

const document = buildOpenApiDocument();
const ajv = new Ajv2020({ strict: false, allErrors: false });
ajv.addSchema({ $id: 'conformance', components: document.components });

type Json = Record<string, any>;

interface Operation {
  method: string;
  template: string;
  spec: Json;
}

/** Every operation of the document but Stripe's webhook, which only a Stripe signature reaches (the fuzz test signs its requests). */
const OPERATIONS: Operation[] = Object.entries(document.paths as Json).flatMap(([template, methods]) =>
  Object.entries(methods as Json)
    .filter(([, spec]) => !(spec.parameters as Json[]).some((parameter) => parameter.name === 'Stripe-Signature'))
    .map(([method, spec]) => ({ method: method.toUpperCase(), template, spec })),
);

const parameterOf = (parameter: Json): Json =>
  parameter.$ref ? document.components.parameters[String(parameter.$ref).split('/').pop()!] : parameter;

interface GeneratedRequest {
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body?: unknown;
}

interface Answer {
  status: number;
  body: any;
}

const api = useLocalApi();
let studio: CheckinStudio;
let apiKeys: string[] = [];
let known: Record<string, unknown[]> = {};
let replacedExportQueue: HrExportQueue | undefined;
let sent = 0;
const tallies = new Map<string, Map<string, number>>();

/** One request over HTTP from a loopback address of its own turn (the public budgets are per client address). */
function send(operation: Operation, generated: GeneratedRequest): Promise<Answer> {
  sent += 1;
  const query = new URLSearchParams(
    Object.entries(generated.query).map(([name, value]): [string, string] => [name, String(value)]),
  ).toString();
  const url = new URL(`${api.url}${generated.path}${query ? `?${query}` : ''}`);
  const form = operation.spec.requestBody?.content?.['application/x-www-form-urlencoded'] !== undefined;
  const body =
    generated.body === undefined
      ? undefined
      : form
        ? new URLSearchParams(generated.body as Record<string, string>).toString()
        : JSON.stringify(generated.body);
  // The API keys take turns, so each stays within its budget whatever the generator drew.
  const key = apiKeys[sent % apiKeys.length]!;
  const presented = Object.fromEntries(
    Object.entries(generated.headers).map(([name, value]) => [name, value.replace(API_KEY_PLACEHOLDER, key)]),
  );
  const headers = {
    ...presented,
    ...(body === undefined
      ? {}
      : {
          'Content-Type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
        }),
  };
  return new Promise((resolvePromise, reject) => {
    const outgoing = httpRequest(
      url,
      { method: operation.method, headers, localAddress: `127.0.0.${2 + (sent % CLIENT_ADDRESSES)}` },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // 204 and other answers without a JSON body stay text
          }
          resolvePromise({ status: response.statusCode ?? 0, body: parsed });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The requests of one operation, every part from the document; only requests the document takes. */
function requestsOf(operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const options = { document, known };
  const parameters = (operation.spec.parameters as Json[]).map(parameterOf);
  const inPlace = (place: string) => parameters.filter((parameter) => parameter.in === place);
  const valueOf = (parameter: Json) => schemaArbitrary(parameter.schema, options, parameter.name);
  const byName = (place: string): Record<string, fc.Arbitrary<unknown>> =>
    Object.fromEntries(inPlace(place).map((parameter) => [parameter.name, valueOf(parameter)]));
  const path = fc
    .record(byName('path'))
    .map((values: Record<string, unknown>) =>
      operation.template.replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(String(values[name]))),
    );
  const requiredOf = (place: string): string[] =>
    inPlace(place)
      .filter((parameter) => parameter.required)
      .map((parameter) => parameter.name as string);
  const query = fc.record(byName('query'), { requiredKeys: requiredOf('query') as never[] }) as fc.Arbitrary<
    Record<string, unknown>
  >;
  const headers = fc.record(byName('header'), { requiredKeys: requiredOf('header') as never[] }) as fc.Arbitrary<
    Record<string, string>
  >;
  const secured = (operation.spec.security as Json[]).length > 0;
  // Either scheme the document names; send() puts in the key whose turn it is.
  const authorization = secured
    ? fc.constantFrom<Record<string, string>>(
        { Authorization: `Bearer ${API_KEY_PLACEHOLDER}` },
        { 'X-Api-Key': API_KEY_PLACEHOLDER },
      )
    : fc.constant({});
  // A JSON body, or a form's fields (a link route's POST), which send() encodes as a form.
  const content = operation.spec.requestBody?.content;
  const bodySchema = (content?.['application/json'] ?? content?.['application/x-www-form-urlencoded'])?.schema;
  const body = bodySchema ? schemaArbitrary(bodySchema, options) : fc.constant(undefined);
  const validBody = bodySchema?.$ref
    ? ajv.compile({ $ref: `conformance${bodySchema.$ref}` })
    : bodySchema && ajv.compile(bodySchema);
  const validParameter = new Map(parameters.map((parameter) => [parameter.name, ajv.compile(parameter.schema)]));
  return fc
    .record({ path, query, headers, authorization, body })
    .map(({ authorization: auth, ...request }) => ({ ...request, headers: { ...request.headers, ...auth } }))
    .filter((request) => (validBody ? validBody(request.body) : true))
    .filter((request) =>
      Object.entries({ ...request.query, ...request.headers }).every(
        ([name, value]) => validParameter.get(name)?.(value) ?? true,
      ),
    );
}

function tally(operation: Operation, answer: Answer): void {
  const label = answer.status >= 400 ? `${answer.status} ${answer.body?.error}` : String(answer.status);
  const key = `${operation.method} ${operation.template}`;
  const counts = tallies.get(key) ?? new Map<string, number>();
  counts.set(label, (counts.get(label) ?? 0) + 1);
  tallies.set(key, counts);
}

beforeAll(async () => {
  studio = await createCheckinStudio({ granularConsents: { face: true, notification: false, hrExport: true } });
  const { tenantId } = studio.tenant;
  // Enough keys that each, taking turns, gets at most half its minute's budget in the whole run.
  const requests = (OPERATIONS.length - 1) * RUNS_PER_OPERATION + RUNS_PER_ACTION_OPERATION;
  const extraKeys = await Promise.all(
    Array.from({ length: Math.ceil(requests / (API_KEY_BUDGET_PER_MINUTE / 2)) }, (_, index) =>
      createApiKey(tenantId, `conformance key ${index}`),
    ),
  );
  apiKeys = [studio.apiKey, ...extraKeys.map((key) => key.secret)];
  const serverHeaders = { 'X-Tenant-Slug': studio.slug, Authorization: `Bearer ${studio.apiKey}` };
  const imported = await api.call(`/groupshoot/${studio.token}/persons`, {
    method: 'POST',
    headers: serverHeaders,
    body: {
      persons: [
        { name: 'Ada Lovelace', email: 'ada@example.com', employeeId: 'E-1', shootingDayId: studio.openDay.id },
        { name: 'Grace Hopper', email: 'grace@example.com', employeeId: 'E-2' },
      ],
    },
  });
  expect(imported.status).toBe(200);
  const [ada, grace] = imported.body.persons;
  const photoKey = photoObjectKey({ tenantId, token: studio.token, personId: ada.personId, fileName: 'portrait.jpg' });
  await uploadObject(photoKey, makeJpeg(32, 24));
  await ingestPhoto(objectCreatedEvent(photoKey, new Date().toISOString()));
  const photos = await api.call(`/groupshoot/${studio.token}/persons/${ada.personId}/photos`, {
    headers: serverHeaders,
  });
  const page = await api.call(`/groupshoot/${studio.token}/persons?limit=1`, { headers: serverHeaders });
  // HR exports are queued, not built: both HR export operations are reached.
  replacedExportQueue = useHrExportQueue({ send: async () => undefined });
  const created = await api.call(`/groupshoot/${studio.token}/hr-exports`, {
    method: 'POST',
    headers: serverHeaders,
    body: {},
  });
  expect([photos.status, page.status, created.status]).toEqual([200, 200, 202]);
  known = {
    'X-Tenant-Slug': [studio.slug],
    token: [studio.token],
    personId: [ada.personId, grace.personId],
    exportId: [created.body.exportId],
    cursor: [page.body.nextCursor],
    employeeId: ['E-1', 'E-2'],
    shootingDayId: [studio.openDay.id, studio.smallDay.id],
    selectedPackageId: [studio.freePackage.id],
    customFields: [{ [studio.fieldKeys.size]: 'm' }],
    consentGiven: [true],
    selfieBase64: [null],
    code: [ada.code, grace.code],
    email: ['ada@example.com', 'grace@example.com'],
    photoId: photos.body.photos.map((photo: { photoId: string }) => photo.photoId),
    // A notification email's one-click unsubscribe link of Grace's (its path's last part).
    link: [(await unsubscribeUrlOf({ tenantId, token: studio.token }, grace.personId)).split('/').pop()],
  };
  await updateGallerySettings(tenantId, studio.token, {
    granularConsents: { face: true, notification: false, hrExport: true },
  });
}, 60_000);

afterAll(() => {
  useHrExportQueue(replacedExportQueue);
  if (process.env.CONFORMANCE_SUMMARY) {
    const lines = [...tallies].map(
      ([operation, counts]) =>
        `${operation}: ${[...counts]
          .sort()
          .map(([label, count]) => `${label} ×${count}`)
          .join(', ')}`,
    );
    process.stdout.write(`seed ${SEED}, ${sent} requests\n${lines.join('\n')}\n`);
  }
});

describe('requests generated from docs/openapi.json get the answers it documents', () => {
  it.each(OPERATIONS.map((operation) => [`${operation.method} ${operation.template}`, operation] as const))(
    '%s',
    async (_name, operation) => {
      // Prepare
      const runs = operation.spec.operationId.startsWith('submitCheckin')
        ? RUNS_PER_ACTION_OPERATION
        : RUNS_PER_OPERATION;
      let successes = 0;
      // Act
      await fc.assert(
        fc.asyncProperty(requestsOf(operation), async (generated) => {
          const answer = await send(operation, generated);
          tally(operation, answer);
          // Assess
          expect(answer.status).toBeLessThan(500);
          expect(answer.status).not.toBe(429);
          const pathWithinStage = new URL(`${api.url}${generated.path}`).pathname.replace(/^\/v1/, '');
          expect(conformanceProblems(operation.method, pathWithinStage, answer.status, answer.body)).toEqual([]);
          if (answer.status < 400) {
            successes += 1;
            return;
          }
          const code = String(answer.body.error);
          // The member itself, wherever it is (files[0].capturedAt is capturedAt).
          const rule = `${code}:${String(answer.body.field ?? answer.body.parameter ?? '').replace(/^.*\./, '')}`;
          if (SHAPE_REFUSALS.has(code))
            expect({ refusal: rule, message: answer.body.message, documentedAs: DOCUMENTED_RULES[rule] }).toEqual(
              expect.objectContaining({ documentedAs: expect.any(String) }),
            );
        }),
        { seed: SEED, numRuns: runs, timeout: 20_000, interruptAfterTimeLimit: 50_000 },
      );
      expect(successes).toBeGreaterThan(0);
    },
    60_000,
  );
});
