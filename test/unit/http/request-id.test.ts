import { requestId } from '#lib/http/request-id';
import { apiEvent, apiRequest, okResponse, runAfter, runBefore, runOnError } from './request-builders';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestId', () => {
  describe('before', () => {
    it("takes API Gateway's requestContext.requestId", async () => {
      const request = apiRequest(apiEvent({ requestId: 'gw-123' }), { requestId: '', awsRequestId: 'lambda-456' });

      await runBefore(requestId(), request);

      expect(request.context.requestId).toBe('gw-123');
    });

    it('falls back to the Lambda request ID without one from API Gateway', async () => {
      const request = apiRequest(apiEvent({ requestId: null }), { requestId: '', awsRequestId: 'lambda-456' });

      await runBefore(requestId(), request);

      expect(request.context.requestId).toBe('lambda-456');
    });

    it('makes up a UUID when neither is there', async () => {
      const request = apiRequest(apiEvent({ requestId: '' }), { requestId: '', awsRequestId: '' });

      await runBefore(requestId(), request);

      expect(request.context.requestId).toMatch(UUID);
    });

    it('starts the request with no collected headers and no path parameters', async () => {
      const request = apiRequest(apiEvent(), {
        responseHeaders: { 'X-RateLimit-Limit': '60' },
        pathParameters: { token: 'from-an-earlier-request' },
      });

      await runBefore(requestId(), request);

      expect(request.context.responseHeaders).toEqual({});
      expect(request.context.pathParameters).toEqual({});
    });
  });

  describe.each([
    ['after', runAfter],
    ['onError', runOnError],
  ] as const)('%s', (_step, runStep) => {
    it('adds X-Request-Id and the collected headers to the answer', async () => {
      // Prepare
      const request = apiRequest(apiEvent(), {
        requestId: 'gw-123',
        responseHeaders: { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '59' },
      });
      request.response = okResponse({ done: true });

      // Act
      await runStep(requestId(), request);

      // Assess
      expect(request.response.headers).toEqual({
        'Content-Type': 'application/json; charset=utf-8',
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '59',
        'X-Request-Id': 'gw-123',
      });
    });

    it("keeps the answer's own value of a header also collected on the way", async () => {
      const request = apiRequest(apiEvent(), { responseHeaders: { 'Retry-After': '30' } });
      request.response = { statusCode: 429, headers: { 'Retry-After': '2' }, body: '{}' };

      await runStep(requestId(), request);

      expect(request.response.headers['Retry-After']).toBe('2');
    });

    it("always carries the request's own ID in X-Request-Id", async () => {
      const request = apiRequest(apiEvent(), { requestId: 'gw-123' });
      request.response = { statusCode: 200, headers: { 'X-Request-Id': 'something-else' }, body: '{}' };

      await runStep(requestId(), request);

      expect(request.response.headers['X-Request-Id']).toBe('gw-123');
    });

    it('leaves a request without an answer alone', async () => {
      const request = apiRequest();

      await runStep(requestId(), request);

      expect(request.response).toBeNull();
    });
  });
});
