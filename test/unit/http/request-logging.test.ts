/**
 * @logLevel INFO
 */
import middy from '@middy/core';
import { resetClock, setClock } from '#lib/platform/clock';
import { ApiError } from '#lib/http/errors';
import { errorResponses } from '#lib/http/error-responses';
import { jsonResponse } from '#lib/http/json-response';
import { requestId } from '#lib/http/request-id';
import { requestLogging } from '#lib/http/request-logging';
import type { ApiContext, ApiEvent, ApiResponse } from '#lib/http/types';
import { logger } from '#lib/platform/logger';
import { apiContext, apiEvent } from './request-builders';
import { type LogLine, captureLogs } from '../../support/log-capture';

const completionLines = (lines: LogLine[]) => lines.filter((line) => line.message === 'request completed');

/** The logging step in its place in the preset: after requestId, before the error mapping. */
function loggedHandler(body: (event: ApiEvent, context: ApiContext) => Promise<ApiResponse>) {
  return middy<ApiEvent, ApiResponse, Error, ApiContext>()
    .use(requestId())
    .use(requestLogging('importPersons'))
    .use(errorResponses())
    .handler(body);
}

const GALLERY_TOKEN = 'secret-gallery-token-7h3k';
const API_KEY = `gsk_${'S'.repeat(40)}`;
const PARTICIPANT_EMAIL = 'ada.private@example.com';

/** A request whose path, headers and body carry what must never reach the logs. */
const sensitiveEvent = () =>
  apiEvent({
    method: 'POST',
    path: `/v1/groupshoot/${GALLERY_TOKEN}/persons`,
    stage: 'v1',
    requestId: 'gw-req-1',
    headers: { authorization: `Bearer ${API_KEY}`, 'x-tenant-slug': 'demo-studio', 'content-type': 'application/json' },
    body: JSON.stringify({ persons: [{ name: 'Ada', email: PARTICIPANT_EMAIL }] }),
  });

afterEach(() => {
  jest.restoreAllMocks();
  resetClock();
});

describe('requestLogging', () => {
  it('writes one completion line with method, status and durationMs', async () => {
    // Prepare: the handler takes 250 ms, on the service's clock and on the wall clock alike.
    let wallClock = 1_000_000;
    setClock(() => wallClock);
    jest.spyOn(Date, 'now').mockImplementation(() => wallClock);
    const handler = loggedHandler(async (_event, context) => {
      wallClock += 250;
      return jsonResponse(201, { imported: 1 }, context.requestId);
    });

    // Act
    const lines = await captureLogs(() => handler(sensitiveEvent(), apiContext()));

    // Assess
    expect(completionLines(lines)).toEqual([
      expect.objectContaining({
        level: 'INFO',
        method: 'POST',
        status: 201,
        durationMs: 250,
        requestId: 'gw-req-1',
        route: 'importPersons',
      }),
    ]);
  });

  it('logs the status of an error answer', async () => {
    const handler = loggedHandler(async () => {
      throw new ApiError('gallery_not_found');
    });

    const lines = await captureLogs(() => handler(sensitiveEvent(), apiContext()));

    expect(completionLines(lines)).toEqual([
      expect.objectContaining({ method: 'POST', status: 404, route: 'importPersons' }),
    ]);
  });

  it.each([
    [
      'an answer',
      async (_event: ApiEvent, context: ApiContext) => jsonResponse(200, { imported: 1 }, context.requestId),
    ],
    [
      'a refusal',
      async () => {
        throw new ApiError('invalid_api_key');
      },
    ],
  ])('never logs the raw path, the headers or the body of %s', async (_case, body) => {
    // Act
    const lines = await captureLogs(() => loggedHandler(body)(sensitiveEvent(), apiContext()));

    // Assess
    expect(completionLines(lines)).toHaveLength(1);
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(GALLERY_TOKEN);
    expect(everything).not.toContain('/persons');
    expect(everything).not.toContain('S'.repeat(40));
    expect(everything).not.toContain('Bearer');
    expect(everything).not.toContain(PARTICIPANT_EMAIL);
  });

  it('adds the request ID and the route to every line written during the request', async () => {
    const handler = loggedHandler(async (_event, context) => {
      logger.info('importing persons');
      return jsonResponse(200, {}, context.requestId);
    });

    const lines = await captureLogs(() => handler(sensitiveEvent(), apiContext()));

    expect(lines.find((line) => line.message === 'importing persons')).toEqual(
      expect.objectContaining({ requestId: 'gw-req-1', route: 'importPersons' }),
    );
  });

  it("does not carry one request's keys into the next request's lines", async () => {
    // Prepare: the first request learns its tenant, the second never gets that far.
    const handler = loggedHandler(async (event, context) => {
      if (event.requestContext.requestId === 'first') logger.appendKeys({ tenant: 'demo-studio' });
      return jsonResponse(200, {}, context.requestId);
    });
    const event = (id: string) => apiEvent({ method: 'POST', path: '/group-shoot', requestId: id });

    // Act
    const lines = await captureLogs(async () => {
      await handler(event('first'), apiContext());
      await handler(event('second'), apiContext());
    });

    // Assess
    const [first, second] = completionLines(lines);
    expect(first).toEqual(expect.objectContaining({ requestId: 'first', tenant: 'demo-studio' }));
    expect(second).toEqual(expect.objectContaining({ requestId: 'second' }));
    expect(second).not.toHaveProperty('tenant');
  });
});
