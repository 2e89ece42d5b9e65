/**
 * A typed client of the groupshoot API for integrators (HR, CRM and ERP connectors, the
 * import command). It waits on 429 until X-RateLimit-Reset, retries the answers documented as
 * retryable with exponential backoff and jitter, and surfaces the request ID in its errors.
 * It uses only `fetch`, so it runs in Node.js 20+ and in browsers (public endpoints only there).
 * Webhook signatures are verified with ./webhook-signature.ts (Node.js, beside this file).
 */

import type * as v from 'valibot';
import type * as schemas from '#lib/http/route-schemas';

/** Answers that are safe to retry: nothing was saved, or the failure was transient. */
const RETRYABLE_CODES = new Set([
  'storage_unavailable',
  'plan_check_unavailable',
  'cdn_signing_unavailable',
  'payment_provider_unavailable',
]);

export class GroupShootApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    readonly body: Record<string, unknown>,
  ) {
    super(`${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = 'GroupShootApiError';
  }
}

export interface ClientOptions {
  /** Ends in /v1, e.g. https://api.example.com/v1 */
  baseUrl: string;
  tenantSlug: string;
  apiKey?: string;
  /** Attempts per request for 429 and retryable answers (default 6). */
  maxAttempts?: number;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** The answers' shapes are the OpenAPI document's (lib/http/route-schemas.ts); a type-only import adds no code. */
export type ShootingDay = v.InferOutput<typeof schemas.ShootingDay>;
export type FormField = v.InferOutput<typeof schemas.FormField>;
export type ImportedPerson = v.InferOutput<typeof schemas.ImportedPerson>;
export type ImportResult = v.InferOutput<typeof schemas.ImportResult>;
export type Person = v.InferOutput<typeof schemas.Person>;
export type PersonsPage = v.InferOutput<typeof schemas.PersonsPage>;
export type CheckinInfo = v.InferOutput<typeof schemas.CheckinInfo>;
export type GalleryStats = v.InferOutput<typeof schemas.GalleryStats>;
export type PersonPhotos = v.InferOutput<typeof schemas.PersonPhotos>;
export type InboxPage = v.InferOutput<typeof schemas.InboxPage>;
export type UploadRequest = v.InferInput<typeof schemas.UploadRequest>;
export type UploadPlan = v.InferOutput<typeof schemas.UploadPlan>;
export type CompleteUploadsRequest = v.InferInput<typeof schemas.CompleteUploadsRequest>;
export type CompleteUploadsResult = v.InferOutput<typeof schemas.CompleteUploadsResult>;

export interface ImportRowInput {
  name: string;
  email?: string | null;
  employeeId?: string | null;
  shootingDayId?: string | null;
}

export class GroupShootClient {
  private readonly options: Required<Omit<ClientOptions, 'apiKey'>> & { apiKey?: string };

  constructor(options: ClientOptions) {
    this.options = {
      maxAttempts: 6,
      fetch: globalThis.fetch.bind(globalThis),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
      ...options,
      baseUrl: options.baseUrl.replace(/\/$/, ''),
    };
  }

  checkinInfo(token: string) {
    return this.request<CheckinInfo>('GET', `/group-shoot/checkin/${encodeURIComponent(token)}`);
  }

  submitCheckin(body: Record<string, unknown>, options: { idempotencyKey?: string } = {}) {
    return this.request<Record<string, unknown>>(
      'POST',
      '/group-shoot',
      { ...body, action: 'submitCheckin' },
      options.idempotencyKey,
    );
  }

  formFields(token: string) {
    return this.request<{ galleryToken: string; formFields: FormField[] }>('GET', `${this.gallery(token)}/form-fields`);
  }

  shootingDays(token: string) {
    return this.request<{ galleryToken: string; shootingDays: ShootingDay[] }>('GET', `${this.gallery(token)}/days`);
  }

  stats(token: string) {
    return this.request<GalleryStats>('GET', `${this.gallery(token)}/stats`);
  }

  importPersons(token: string, persons: ImportRowInput[], options: { idempotencyKey?: string } = {}) {
    return this.request<ImportResult>('POST', `${this.gallery(token)}/persons`, { persons }, options.idempotencyKey);
  }

  listPersons(token: string, query: { employeeId?: string; limit?: number; cursor?: string } = {}) {
    const parameters = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) parameters.set(name, String(value));
    const suffix = parameters.size > 0 ? `?${parameters.toString()}` : '';
    return this.request<PersonsPage>('GET', `${this.gallery(token)}/persons${suffix}`);
  }

  /** Every person of the gallery (or with one employeeId), page by page. */
  async *allPersons(token: string, query: { employeeId?: string } = {}): AsyncGenerator<Person> {
    let cursor: string | undefined;
    do {
      const page = await this.listPersons(token, { ...query, limit: 500, cursor });
      yield* page.persons;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  personPhotos(token: string, personId: string) {
    return this.request<PersonPhotos>('GET', `${this.gallery(token)}/persons/${encodeURIComponent(personId)}/photos`);
  }

  /** Every file in the gallery's inbox with its size, page by page. */
  async *allInboxFiles(token: string): AsyncGenerator<InboxPage['files'][number]> {
    let cursor: string | undefined;
    do {
      const suffix = cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      const page = await this.request<InboxPage>('GET', `${this.gallery(token)}/uploads${suffix}`);
      yield* page.files;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  /** Presigned upload URLs into the gallery's inbox (docs/photos.md#uploading-a-shoot). */
  createUploads(token: string, body: UploadRequest) {
    return this.request<UploadPlan>('POST', `${this.gallery(token)}/uploads`, body);
  }

  /** Completes or aborts multipart uploads into the gallery's inbox. */
  completeUploads(token: string, files: CompleteUploadsRequest['files']) {
    return this.request<CompleteUploadsResult>('POST', `${this.gallery(token)}/uploads/complete`, { files });
  }

  private gallery(token: string): string {
    return `/group-shoot/checkin/${encodeURIComponent(token)}`;
  }

  private async request<T>(method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    const { baseUrl, tenantSlug, apiKey, maxAttempts, sleep, now } = this.options;
    const headers: Record<string, string> = { 'X-Tenant-Slug': tenantSlug };
    if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    for (let attempt = 1; ; attempt += 1) {
      const response = await this.options.fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok) return answer as T;
      const code = typeof answer.error === 'string' ? answer.error : `http_${response.status}`;
      const error = new GroupShootApiError(
        response.status,
        code,
        typeof answer.message === 'string' ? answer.message : response.statusText,
        response.headers.get('x-request-id') ?? undefined,
        answer,
      );
      if (attempt >= maxAttempts) throw error;
      if (response.status === 429) {
        // X-RateLimit-Reset is the Unix second at which a retry is admitted.
        const reset = Number(response.headers.get('x-ratelimit-reset'));
        await sleep(Math.max(0, reset * 1000 - now()) + 50);
      } else if (RETRYABLE_CODES.has(code) || (response.status === 409 && code === 'idempotency_key_in_use')) {
        await sleep(Math.random() * Math.min(8000, 250 * 2 ** attempt));
      } else {
        throw error;
      }
    }
  }
}
