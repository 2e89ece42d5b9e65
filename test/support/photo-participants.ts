import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { handler as postGroupShoot } from '../../functions/checkin/post-group-shoot';
import { lambdaContext, publicPostEvent } from '../../scripts/local/api-gateway-event';
import { recordPhoto } from '#lib/photos/common/store/photos';
import { photoIdOf, photoObjectKey } from '#lib/platform/media-keys';
import type { ApiAnswer, ApiCall } from './local-api';
import type { TestTenant } from './factories';
import { uploadObject } from './media';

/** Participants of a gallery and their photos, for the tests of the "My photos" ways in. */

export interface Participant {
  personId: string;
  code: string;
  email: string | null;
  employeeId: string | null;
}

type CallApi = (path: string, options?: ApiCall) => Promise<ApiAnswer>;

/** Imports the persons through the server-side route and answers them with their codes. */
export async function importParticipants(
  call: CallApi,
  studio: TestTenant,
  token: string,
  persons: { name: string; email?: string; employeeId?: string }[],
): Promise<Participant[]> {
  const answer = await call(`/groupshoot/${token}/persons`, {
    method: 'POST',
    headers: studio.serverHeaders,
    body: { persons },
  });
  expect(answer.status).toBe(200);
  return answer.body.persons;
}

/** A photo of the person as ingest records one: the object in the bucket and its record. */
export async function givePhoto(
  studio: TestTenant,
  token: string,
  personId: string,
  fileName: string,
  jpeg: Buffer,
): Promise<void> {
  const objectKey = photoObjectKey({ tenantId: studio.tenant.tenantId, token, personId, fileName });
  await uploadObject(objectKey, jpeg);
  const recorded = await recordPhoto(
    { tenantId: studio.tenant.tenantId, token },
    {
      photoId: photoIdOf(objectKey),
      personId,
      fileName,
      objectKey,
      width: 64,
      height: 48,
      capturedAt: null,
      createdAt: new Date(Date.now() + fileName.length).toISOString(),
    },
  );
  expect(recorded).toBe('recorded');
}

/** What the in-process handler answered. */
export interface HandlerAnswer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * POST /group-shoot in process, as from `sourceIp`: the attempt limits count per client, and a
 * test with a clock of its own needs requests from many addresses without a server.
 */
export async function postFrom(
  studio: TestTenant,
  sourceIp: string,
  body: Record<string, unknown>,
  at = Date.now(),
): Promise<HandlerAnswer> {
  const event = publicPostEvent(
    { routeKey: 'POST /group-shoot', path: '/group-shoot' },
    { 'x-tenant-slug': studio.slug },
    sourceIp,
    { token: studio.token, ...body },
    at,
  );
  const {
    statusCode,
    headers,
    body: text,
  } = (await postGroupShoot(event, lambdaContext('photos'))) as APIGatewayProxyStructuredResultV2;
  return {
    status: statusCode ?? 200,
    headers: (headers ?? {}) as Record<string, string>,
    body: JSON.parse(String(text)),
  };
}

/** The photo link token in a link email's text (`#my-photos/link/<token>`). */
export function photoLinkOfEmail(text: string): string {
  const match = /#my-photos\/link\/([A-Za-z0-9_.-]+)/.exec(text);
  if (!match) throw new Error(`no photo link in: ${text}`);
  return match[1]!;
}
