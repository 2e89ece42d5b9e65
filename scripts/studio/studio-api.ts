/**
 * The studio console's JSON API (docs/studio-console.md), behind the session secret and the host
 * check of studio-server.ts: each route runs an admin CLI command (studio-commands.ts) for the
 * console's tenant, and answers its `--json` data, a thumbnail or the cards PDF. The CLI's and the
 * use cases' refusals become 4xx answers with their message.
 */
import type { IncomingMessage } from 'node:http';
import { CliError, ConflictError, NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { inboxObjectKey } from '#lib/platform/media-keys';
import { DomainError } from '#lib/platform/domain-error';
import type { ReviewPage } from '#lib/photos/sorting/shoot-review';
import {
  eraseStudioPerson,
  findStudioPersons,
  findStudioReferences,
  listStudioGalleries,
  listStudioPersons,
  nameStudioPersons,
  printStudioCards,
  runCommand,
  showStudioGalleryStats,
  showStudioPerson,
} from './studio-commands';
import type { ThumbnailCache } from './thumbnails';

const MAX_BODY_BYTES = 4096;

/** Photos per page of the review queue: about three screens of cards. */
export const REVIEW_PAGE_SIZE = 50;

export interface Reply {
  status: number;
  /** JSON, or a file's bytes (a thumbnail, a PDF) with its type. */
  body: unknown;
  file?: { contentType: string; headers?: Record<string, string> };
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export interface StudioApiContext {
  /** The tenant slug whose galleries the console shows, and its ID. */
  tenant: string;
  tenantId: string;
  thumbnails: ThumbnailCache;
}

/** The API's answer to a request at `api/<segments>`. */
export function studioApi(
  context: StudioApiContext,
): (request: IncomingMessage, url: URL, segments: string[]) => Promise<Reply> {
  const { tenant, tenantId, thumbnails } = context;
  /** Object keys of the photos the queue or a person view listed, by gallery and photo ID: a thumbnail is only made of a listed photo. */
  const listedKeys = new Map<string, string>();
  /** Object keys of the references of the persons whose face-mismatch photos the queue listed, by gallery and person ID. */
  const referenceKeys = new Map<string, string>();

  async function answerApi(request: IncomingMessage, url: URL, segments: string[]): Promise<Reply> {
    try {
      return await route(request, url, segments);
    } catch (error) {
      if (error instanceof HttpRefusal) return { status: error.status, body: refusal(error.error, error.message) };
      if (error instanceof CliError) return { status: statusOf(error), body: refusal(errorOf(error), error.message) };
      // A use case's refusal (the person listing of a gallery that is not a group shoot, for one).
      if (error instanceof DomainError)
        return {
          status: error.reason.startsWith('unknown_') ? 404 : 400,
          body: refusal(error.reason, error.message || error.reason.replaceAll('_', ' ')),
        };
      throw error;
    }
  }

  async function route(request: IncomingMessage, url: URL, segments: string[]): Promise<Reply> {
    const method = request.method ?? 'GET';
    if (method === 'GET' && segments.length === 1 && segments[0] === 'galleries') {
      return { status: 200, body: { ok: true, tenant, galleries: await listStudioGalleries(tenant) } };
    }
    if (segments[0] === 'webhooks') return webhookRoute(request, url, method, segments.slice(1));
    // `what/ID/action`: a photo's or a person's ID, and what is done to them.
    const [galleries, gallery, what, id, action] = segments;
    if (galleries !== 'galleries' || !gallery) throw new HttpRefusal(404, 'not_found', 'No such route');
    if (method === 'GET' && what === 'review' && segments.length === 3) {
      const after = url.searchParams.get('after');
      const page = (await runCommand('photo', 'review', {
        tenant,
        gallery,
        limit: url.searchParams.get('limit') ?? String(REVIEW_PAGE_SIZE),
        ...(after ? { after } : {}),
      })) as ReviewPage;
      const { photos } = page;
      // The page's photos and the cards that govern them may be drawn.
      for (const listed of [...photos, ...photos.flatMap((photo) => (photo.card ? [photo.card] : []))]) {
        listedKeys.set(`${gallery}/${listed.photoId}`, inboxObjectKey({ tenantId, token: gallery, path: listed.path }));
      }
      const mismatched = photos.flatMap((listed) =>
        listed.heldFor !== null && listed.reason === 'face_mismatch' ? [listed.heldFor] : [],
      );
      const named = photos.flatMap((listed) => [
        ...(listed.heldFor ? [listed.heldFor] : []),
        ...(listed.card?.personId ? [listed.card.personId] : []),
        ...listed.candidates.map((candidate) => candidate.personId),
      ]);
      const [references, persons] = await Promise.all([
        findStudioReferences(tenant, gallery, mismatched),
        nameStudioPersons(tenant, gallery, [...new Set(named)]),
      ]);
      for (const [personId, reference] of references) referenceKeys.set(`${gallery}/${personId}`, reference.objectKey);
      const shown = photos.map((listed) => {
        const reference =
          listed.reason === 'face_mismatch' && listed.heldFor ? references.get(listed.heldFor) : undefined;
        return { ...listed, reference: reference ? { personId: listed.heldFor, kind: reference.kind } : null };
      });
      return {
        status: 200,
        body: { ok: true, gallery, counts: page.counts, photos: shown, next: page.next, persons },
      };
    }
    if (method === 'GET' && what === 'person-lookup' && segments.length === 3) {
      const persons = await findStudioPersons(tenant, gallery, url.searchParams.get('text') ?? '');
      return { status: 200, body: { ok: true, gallery, persons } };
    }
    if (method === 'GET' && what === 'persons' && segments.length === 3) {
      return { status: 200, body: { ok: true, gallery, persons: await listStudioPersons(tenant, gallery) } };
    }
    if (method === 'GET' && what === 'thumbnails' && id && segments.length === 4) {
      const key = listedKeys.get(`${gallery}/${id}`);
      // Without MEDIA_BUCKET (TABLE_NAME set by hand, and no bucket), the queue works without pictures.
      const thumbnail = key && process.env.MEDIA_BUCKET ? await thumbnails.get(key) : undefined;
      if (!thumbnail)
        throw new HttpRefusal(
          404,
          'not_found',
          'No thumbnail: the photo is not in a listed queue or person, or its image is not in the bucket',
        );
      return { status: 200, body: thumbnail, file: { contentType: 'image/jpeg' } };
    }
    if (method === 'GET' && what === 'references' && id && segments.length === 4) {
      const key = referenceKeys.get(`${gallery}/${id}`);
      const thumbnail = key && process.env.MEDIA_BUCKET ? await thumbnails.get(key) : undefined;
      if (!thumbnail)
        throw new HttpRefusal(
          404,
          'not_found',
          'No reference: the person has no face-mismatch photo in a listed queue, or their reference image is not in the bucket',
        );
      return { status: 200, body: thumbnail, file: { contentType: 'image/jpeg' } };
    }
    if (method === 'GET' && what === 'stats' && segments.length === 3) {
      return { status: 200, body: { ok: true, gallery, ...(await showStudioGalleryStats(tenant, gallery)) } };
    }
    if (method === 'GET' && what === 'cards' && segments.length === 3) {
      const printed = await printStudioCards(tenant, gallery, {
        day: url.searchParams.get('day') ?? undefined,
        paper: url.searchParams.get('paper') ?? undefined,
      });
      const name =
        `cards-${gallery}${url.searchParams.get('day') ? `-${url.searchParams.get('day')}` : ''}.pdf`.replace(
          /[^\w.-]/g,
          '_',
        );
      return {
        status: 200,
        body: printed.pdf,
        file: { contentType: 'application/pdf', headers: { 'Content-Disposition': `attachment; filename="${name}"` } },
      };
    }
    if (what === 'persons' && id && segments.length <= 5) return personRoute(request, method, gallery, id, action);
    if (
      method === 'POST' &&
      what === 'photos' &&
      id &&
      segments.length === 5 &&
      (action === 'release' || action === 'assign' || action === 'dismiss')
    ) {
      const body = await readJsonBody(request);
      const values = {
        tenant,
        gallery,
        photo: id,
        ...(action === 'assign' ? { person: typeof body.personId === 'string' ? body.personId : undefined } : {}),
      };
      const data = await runCommand('photo', action, values);
      return { status: 200, body: { ok: true, ...(data as object) } };
    }
    throw new HttpRefusal(404, 'not_found', 'No such route');
  }

  /** The person view: `persons/ID` (their photos), `persons/ID/pick`, `persons/ID/erase`. */
  async function personRoute(
    request: IncomingMessage,
    method: string,
    gallery: string,
    personId: string,
    action: string | undefined,
  ): Promise<Reply> {
    if (method === 'GET' && action === undefined) {
      const shown = await showStudioPerson(tenant, gallery, personId);
      for (const listed of shown.photos) listedKeys.set(`${gallery}/${listed.photoId}`, listed.objectKey);
      return { status: 200, body: { ok: true, gallery, ...shown } };
    }
    if (method === 'POST' && action === 'pick') {
      const body = await readJsonBody(request);
      const data = await runCommand('photo', 'pick', {
        tenant,
        gallery,
        person: personId,
        photo: typeof body.photoId === 'string' ? body.photoId : undefined,
      });
      return { status: 200, body: { ok: true, ...(data as object) } };
    }
    if (method === 'POST' && action === 'erase') {
      const body = await readJsonBody(request);
      const receipt = await eraseStudioPerson(tenant, gallery, personId, {
        dryRun: body.dryRun === true,
        confirm: typeof body.confirm === 'string' ? body.confirm : undefined,
      });
      return { status: 200, body: { ok: true, receipt: receipt.data, lines: receipt.lines } };
    }
    throw new HttpRefusal(404, 'not_found', 'No such route');
  }

  /** Webhooks: `webhooks` (`webhook list`), `webhooks/ID/deliveries` (`webhook deliveries`), `webhooks/ID/replay` (`webhook replay`). */
  async function webhookRoute(
    request: IncomingMessage,
    url: URL,
    method: string,
    [id, action, ...rest]: string[],
  ): Promise<Reply> {
    if (method === 'GET' && id === undefined)
      return { status: 200, body: { ok: true, subscriptions: await runCommand('webhook', 'list', { tenant }) } };
    if (method === 'GET' && id && action === 'deliveries' && rest.length === 0) {
      const status = url.searchParams.get('status') ?? undefined;
      return {
        status: 200,
        body: {
          ok: true,
          deliveries: await runCommand('webhook', 'deliveries', {
            tenant,
            id,
            limit: '50',
            ...(status ? { status } : {}),
          }),
        },
      };
    }
    if (method === 'POST' && id && action === 'replay' && rest.length === 0) {
      const body = await readJsonBody(request);
      const which =
        body.failed === true
          ? { failed: true }
          : { event: typeof body.eventId === 'string' ? body.eventId : undefined };
      return {
        status: 200,
        body: { ok: true, ...((await runCommand('webhook', 'replay', { tenant, id, ...which })) as object) },
      };
    }
    throw new HttpRefusal(404, 'not_found', 'No such route');
  }

  return answerApi;
}

/** A POST's JSON object: Content-Type application/json (which no plain HTML form can send), at most 4 KiB. */
async function readJsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    throw new HttpRefusal(415, 'unsupported_media_type', 'Send the action as application/json');
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) throw new HttpRefusal(413, 'payload_too_large', 'The body is larger than 4 KiB');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, 'invalid_json', 'The body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new HttpRefusal(400, 'invalid_body', 'The body is not a JSON object');
  return parsed as Record<string, unknown>;
}

function statusOf(error: CliError): number {
  if (error instanceof UsageError) return 400;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ConflictError) return 409;
  return 400;
}

function errorOf(error: CliError): string {
  if (error instanceof UsageError) return 'refused';
  if (error instanceof NotFoundError) return 'not_found';
  if (error instanceof ConflictError) return 'conflict';
  return 'refused';
}

export function refusal(error: string, message: string) {
  return { ok: false, error, message };
}
