import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ApiKeyRecord } from '#lib/tenants/store/api-keys';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { GalleryPointer } from '#lib/galleries/store/gallery-pointers';
import type { Route } from '#lib/http/routes';

/** API Gateway HTTP API event (payload format 2.0); `body` is replaced by the parsed JSON where a route takes one. */
export type ApiEvent = Omit<APIGatewayProxyEventV2, 'body'> & { body?: unknown };

export type ApiResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

/** The Lambda context, plus what the pipeline learns about the request on its way in. */
export interface ApiContext extends Context {
  requestId: string;
  /** Headers every response of this request carries (rate-limit headers, for example). */
  responseHeaders: Record<string, string>;
  route?: Route;
  pathParameters: Record<string, string>;
  tenant?: Tenant;
  apiKey?: ApiKeyRecord;
  /** The gallery a public request names, as the public rate limit read it. */
  gallery?: GalleryConfiguration;
  /** The lookup of the gallery a server-side GET names, started beside the key check (prefetchGallery). */
  galleryLookup?: Promise<GalleryConfiguration | undefined>;
  /** The pointers of the gallery a public GET names, read beside a tenant this process had not read lately (prefetchGalleryPointer). */
  galleryPointerLookup?: Promise<GalleryPointer[] | undefined>;
  /** A public request's source address, as the public rate limit counted it. */
  clientAddress?: string;
  /** Persons the answer is about without naming them (see EndpointInput.answerConcerns). */
  answerPersonIds?: string[];
}

/** What an endpoint body sees: the tenant and key are resolved, the body parsed. */
export interface EndpointInput {
  body: Record<string, unknown>;
  pathParameters: Record<string, string>;
  query: Record<string, string>;
  tenant: Tenant;
  /** The gallery the pipeline read already (public routes), for the use case to reuse. */
  gallery?: GalleryConfiguration;
  /** The client's address (public routes), for the budgets that count per client site. */
  clientAddress?: string;
  /**
   * Names the persons an answer is about when its body does not carry their `personId`, so
   * that its idempotency record names them too and erasure finds it (lib/http/idempotency.ts).
   */
  answerConcerns: (personIds: readonly string[]) => void;
}

/** Members of a successful response body; `ok` and `requestId` are added by the pipeline. */
export type EndpointResult = Record<string, unknown>;

export type ApiMiddleware = MiddlewareObj<ApiEvent, ApiResponse, Error, ApiContext>;
export type ApiRequest = Request<ApiEvent, ApiResponse, Error, ApiContext>;
