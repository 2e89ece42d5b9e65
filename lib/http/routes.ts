/**
 * Every route of the API, declared once. The local server, the method check (405/404), the
 * CDK stack and the OpenAPI document all read this list; there is no second one.
 *
 * `handler` names the file under `functions/` (without extension) that serves the route on
 * its primary path and on its alias alike.
 */
import { MAX_FILES_PER_UPLOAD_REQUEST } from '#lib/photos/common/rules/photo-limits';
import { MAX_PERSONS_PER_IMPORT } from '#lib/persons/rules/person-limits';

export type HttpMethod = 'GET' | 'POST' | 'OPTIONS';

/**
 * public: tenant slug only, and browsers of any origin may call it (CORS, preflight routes).
 * server: tenant slug, API key, plan and rate limit; no CORS, so a key is useless in a browser.
 * webhook: no tenant header (the sender names the account); the raw body is verified instead.
 * link: no tenant header and no key: the signed link in the path names the tenant, gallery and
 * person, and allows only what its purpose does (an email's one-click unsubscribe).
 */
export type RouteAccess = 'public' | 'server' | 'webhook' | 'link';

export interface Route {
  readonly id: string;
  readonly method: HttpMethod;
  readonly path: string;
  readonly alias?: string;
  readonly handler: string;
  readonly access: RouteAccess;
  readonly summary: string;
  /** The status of a successful answer where it is not 200: 202 for work that goes on after the answer. */
  readonly successStatus?: 202;
}

export const routes = [
  {
    id: 'getCheckinInfo',
    method: 'GET',
    path: '/group-shoot/checkin/{token}',
    handler: 'checkin/get-checkin-info',
    access: 'public',
    summary: 'Gallery metadata for rendering a custom check-in page',
  },
  {
    id: 'submitCheckin',
    method: 'POST',
    path: '/group-shoot',
    handler: 'checkin/post-group-shoot',
    access: 'public',
    summary: 'Check-in actions selected by the body member action (submitCheckin)',
  },
  {
    id: 'checkinInfoPreflight',
    method: 'OPTIONS',
    path: '/group-shoot/checkin/{token}',
    handler: 'http/cors-preflight',
    access: 'public',
    summary: 'CORS preflight of the public check-in info',
  },
  {
    id: 'checkinPreflight',
    method: 'OPTIONS',
    path: '/group-shoot',
    handler: 'http/cors-preflight',
    access: 'public',
    summary: 'CORS preflight of the public check-in actions',
  },
  {
    id: 'listFormFields',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/form-fields',
    alias: '/groupshoot/{token}/form-fields',
    handler: 'galleries/list-form-fields',
    access: 'server',
    summary: 'The enabled check-in form fields, for custom check-in pages and customFields labels',
  },
  {
    id: 'listPersonPhotos',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/persons/{personId}/photos',
    alias: '/groupshoot/{token}/persons/{personId}/photos',
    handler: 'photos/access/list-person-photos',
    access: 'server',
    summary: "A person's assigned photos with time-limited signed CloudFront URLs",
  },
  {
    id: 'listShootingDays',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/days',
    alias: '/groupshoot/{token}/days',
    handler: 'galleries/list-shooting-days',
    access: 'server',
    summary: 'Shooting days with capacity and bookings',
  },
  {
    id: 'listPersons',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/persons',
    alias: '/groupshoot/{token}/persons',
    handler: 'persons/list-persons',
    access: 'server',
    summary: 'Persons of the gallery, paginated, optionally filtered by exact employeeId',
  },
  {
    id: 'importPersons',
    method: 'POST',
    path: '/group-shoot/checkin/{token}/persons',
    alias: '/groupshoot/{token}/persons',
    handler: 'persons/import-persons',
    access: 'server',
    summary: `Bulk import of up to ${MAX_PERSONS_PER_IMPORT} persons, each given a 4-character access code`,
  },
  {
    id: 'getGalleryStats',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/stats',
    alias: '/groupshoot/{token}/stats',
    handler: 'galleries/get-gallery-stats',
    access: 'server',
    summary: 'Dashboard statistics from counters maintained on every write',
  },
  {
    id: 'listInboxFiles',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/uploads',
    alias: '/groupshoot/{token}/uploads',
    handler: 'photos/uploads/list-inbox-files',
    access: 'server',
    summary: "The files in the gallery's inbox with their sizes, paginated: what an upload need not send again",
  },
  {
    id: 'createUploads',
    method: 'POST',
    path: '/group-shoot/checkin/{token}/uploads',
    alias: '/groupshoot/{token}/uploads',
    handler: 'photos/uploads/create-uploads',
    access: 'server',
    summary: `Presigned upload URLs into the gallery's inbox for up to ${MAX_FILES_PER_UPLOAD_REQUEST} photos (multipart for large ones)`,
  },
  {
    id: 'completeUploads',
    method: 'POST',
    path: '/group-shoot/checkin/{token}/uploads/complete',
    alias: '/groupshoot/{token}/uploads/complete',
    handler: 'photos/uploads/complete-uploads',
    access: 'server',
    summary: `Completes or aborts up to ${MAX_FILES_PER_UPLOAD_REQUEST} multipart uploads into the gallery's inbox`,
  },
  {
    id: 'createHrExport',
    method: 'POST',
    path: '/group-shoot/checkin/{token}/hr-exports',
    alias: '/groupshoot/{token}/hr-exports',
    handler: 'hr-exports/create-hr-export',
    access: 'server',
    successStatus: 202,
    summary:
      'Queues an HR export: one square portrait per person who gave hrExportConsent, named by the employee ID HR imported (else the person ID), with a manifest, as a ZIP',
  },
  {
    id: 'getHrExport',
    method: 'GET',
    path: '/group-shoot/checkin/{token}/hr-exports/{exportId}',
    alias: '/groupshoot/{token}/hr-exports/{exportId}',
    handler: 'hr-exports/get-hr-export',
    access: 'server',
    summary:
      "An HR export's state: queued, running, ready (with a presigned download URL and its report) or failed (with a reason)",
  },
  {
    id: 'stripeWebhook',
    method: 'POST',
    path: '/webhooks/stripe',
    handler: 'payments/stripe-webhook',
    access: 'webhook',
    summary: 'Stripe Connect events: checkout sessions completed, expired, async payments; account updates',
  },
  {
    id: 'unsubscribePage',
    method: 'GET',
    path: '/unsubscribe/{link}',
    handler: 'privacy/unsubscribe',
    access: 'link',
    summary:
      "The page of a notification email's one-click unsubscribe link (HTML): it changes nothing; its button POSTs List-Unsubscribe=One-Click",
  },
  {
    id: 'unsubscribe',
    method: 'POST',
    path: '/unsubscribe/{link}',
    handler: 'privacy/unsubscribe',
    access: 'link',
    summary:
      "One-click unsubscribe (RFC 8058): the form body List-Unsubscribe=One-Click withdraws the notificationConsent of the link's person",
  },
] as const satisfies readonly Route[];

export type RouteId = (typeof routes)[number]['id'];

export const CORS_PREFLIGHT_HANDLER = 'http/cors-preflight';

/** The function that answers requests no route matches: 404 not_found or 405 method_not_allowed. */
export const UNMATCHED_ROUTE_HANDLER = 'http/route-not-matched';

export function findRoute(id: RouteId): Route {
  const route = routes.find((candidate) => candidate.id === id);
  if (!route) throw new Error(`Unknown route id ${id}`);
  return route;
}

/** The primary path and, where there is one, the alias. */
export function pathsOf(route: Route): string[] {
  return route.alias ? [route.path, route.alias] : [route.path];
}

export interface PathMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

const compiledTemplates = new Map<string, { pattern: RegExp; names: string[] }>();

function compileTemplate(template: string): { pattern: RegExp; names: string[] } {
  let compiled = compiledTemplates.get(template);
  if (!compiled) {
    const names: string[] = [];
    const source = template
      .split('/')
      .map((segment) => {
        const parameter = /^\{(\w+)\}$/.exec(segment);
        if (!parameter?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(parameter[1]);
        return '([^/]+)';
      })
      .join('/');
    compiled = { pattern: new RegExp(`^${source}$`), names };
    compiledTemplates.set(template, compiled);
  }
  return compiled;
}

/** Matches a path (without the stage prefix) against one template; null when it does not fit. */
export function matchTemplate(template: string, path: string): Record<string, string> | null {
  const { pattern, names } = compileTemplate(template);
  const found = pattern.exec(path);
  if (!found) return null;
  const parameters: Record<string, string> = {};
  try {
    names.forEach((name, index) => {
      parameters[name] = decodeURIComponent(found[index + 1] ?? '');
    });
  } catch {
    return null; // a malformed percent-encoding names no resource
  }
  return parameters;
}

/** Every route whose primary path or alias fits the path, whatever its method. */
export function routesAtPath(path: string): PathMatch[] {
  const matches: PathMatch[] = [];
  for (const route of routes as readonly Route[]) {
    for (const template of pathsOf(route)) {
      const pathParameters = matchTemplate(template, path);
      if (pathParameters) matches.push({ route, pathParameters });
    }
  }
  return matches;
}
