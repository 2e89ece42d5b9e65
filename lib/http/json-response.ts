import type { ApiResponse } from '#lib/http/types';

/** The one place a response body is serialised: every body carries `ok` and `requestId`. */
export function jsonResponse(
  statusCode: number,
  members: Record<string, unknown>,
  requestId: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    statusCode,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': requestId, ...headers },
    body: JSON.stringify({ ok: statusCode < 400, ...members, requestId }),
  };
}

/** Header lookup that does not depend on the caller's casing (API Gateway lowercases names). */
export function headerValue(headers: Record<string, string | undefined> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
