import { ERROR_CATALOG } from '#lib/http/errors';
import { jsonBody } from '#lib/http/json-body';
import { apiEvent, apiRequest, runBefore } from './request-builders';

/** The request after jsonBody's before step, with the body as sent. */
function withBody(body: unknown, options: { isBase64Encoded?: boolean; headers?: Record<string, string> } = {}) {
  return apiRequest(apiEvent({ method: 'POST', body, ...options }));
}

/** JSON text of one object nested `depth` levels deep (the object itself is level 1). */
function nestedObject(depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
}

/** A JSON object whose UTF-8 text is exactly `bytes` long. */
function objectOfBytes(bytes: number): string {
  return `{"a":"${'x'.repeat(bytes - 8)}"}`;
}

const MiB = 1024 * 1024;
/** The documented body limit. */
const MAX_BODY_BYTES = 5 * MiB;

describe('jsonBody', () => {
  it('replaces the body text with the parsed object', async () => {
    const request = withBody('{"action":"submitCheckin","name":"Ada","customFields":{"custom-1":42}}');

    await runBefore(jsonBody(), request);

    expect(request.event.body).toEqual({ action: 'submitCheckin', name: 'Ada', customFields: { 'custom-1': 42 } });
  });

  describe('an empty body', () => {
    it.each([
      ['absent', undefined],
      ['empty', ''],
    ])('%s gives 400 invalid_json asking for an object', async (_kind, body) => {
      await expect(runBefore(jsonBody(), withBody(body))).rejects.toMatchObject({
        code: 'invalid_json',
        status: 400,
        message: 'A JSON object is required as the request body.',
      });
    });
  });

  it.each(['[]', '[{"name":"Ada"}]', '"text"', '42', 'null', 'true'])(
    'gives 400 invalid_json to the JSON %s, which is not an object',
    async (body) => {
      await expect(runBefore(jsonBody(), withBody(body))).rejects.toMatchObject({
        code: 'invalid_json',
        message: 'The request body must be a JSON object.',
      });
    },
  );

  it.each(['{', '{"name":}', "{'name':'Ada'}", '{"name":"Ada",}', '   ', 'name=Ada'])(
    'gives 400 invalid_json to the invalid JSON %p',
    async (body) => {
      await expect(runBefore(jsonBody(), withBody(body))).rejects.toMatchObject({
        code: 'invalid_json',
        message: ERROR_CATALOG.invalid_json.message,
      });
    },
  );

  describe('size', () => {
    it('accepts a body of exactly 5 MiB', async () => {
      const request = withBody(objectOfBytes(MAX_BODY_BYTES));

      await runBefore(jsonBody(), request);

      expect(request.event.body).toEqual({ a: expect.any(String) });
    });

    it('gives 413 payload_too_large one byte above 5 MiB', async () => {
      await expect(runBefore(jsonBody(), withBody(objectOfBytes(MAX_BODY_BYTES + 1)))).rejects.toMatchObject({
        code: 'payload_too_large',
        status: 413,
        message: `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
      });
    });

    it('counts bytes, not characters: 3 Mi two-byte characters are too large', async () => {
      const body = `{"a":"${'é'.repeat(3 * MiB)}"}`;

      await expect(runBefore(jsonBody(), withBody(body))).rejects.toMatchObject({ code: 'payload_too_large' });
    });

    it('gives payload_too_large, not invalid_json, to a large body that is not JSON either', async () => {
      await expect(runBefore(jsonBody(), withBody('x'.repeat(MAX_BODY_BYTES + 1)))).rejects.toMatchObject({
        code: 'payload_too_large',
      });
    });
  });

  describe('nesting', () => {
    it('accepts an object nested 32 levels deep', async () => {
      const request = withBody(nestedObject(32));

      await runBefore(jsonBody(), request);

      expect(JSON.stringify(request.event.body)).toBe(nestedObject(32));
    });

    it.each([33, 10_000])('gives 400 invalid_json to an object nested %i levels deep', async (depth) => {
      await expect(runBefore(jsonBody(), withBody(nestedObject(depth)))).rejects.toMatchObject({
        code: 'invalid_json',
        message: 'The request body is nested deeper than 32 levels.',
      });
    });

    it('counts arrays as levels too', async () => {
      const body = `{"a":${'['.repeat(32)}${']'.repeat(32)}}`;

      await expect(runBefore(jsonBody(), withBody(body))).rejects.toMatchObject({ code: 'invalid_json' });
    });

    it('does not count brackets inside strings, escaped quotes included', async () => {
      const brackets = '{['.repeat(100);
      const request = withBody(JSON.stringify({ notes: brackets, quoted: `say \\"${brackets}` }));

      await runBefore(jsonBody(), request);

      expect(request.event.body).toEqual({ notes: brackets, quoted: `say \\"${brackets}` });
    });
  });

  describe('a base64-encoded body', () => {
    const encoded = (text: string) => Buffer.from(text, 'utf8').toString('base64');

    it('is decoded and parsed', async () => {
      const request = withBody(encoded('{"name":"Zoë"}'), { isBase64Encoded: true });

      await runBefore(jsonBody(), request);

      expect(request.event.body).toEqual({ name: 'Zoë' });
    });

    it('that decodes to no JSON gives 400 invalid_json', async () => {
      await expect(
        runBefore(jsonBody(), withBody(encoded('{"name":'), { isBase64Encoded: true })),
      ).rejects.toMatchObject({
        code: 'invalid_json',
      });
    });

    it('gives 413 payload_too_large when it decodes to more than 5 MiB', async () => {
      const body = encoded(objectOfBytes(MAX_BODY_BYTES + 1024));

      await expect(runBefore(jsonBody(), withBody(body, { isBase64Encoded: true }))).rejects.toMatchObject({
        code: 'payload_too_large',
      });
    });

    it('is measured by its decoded size, not by its longer text', async () => {
      const body = encoded(objectOfBytes(MAX_BODY_BYTES - 3));
      const request = withBody(body, { isBase64Encoded: true });

      await runBefore(jsonBody(), request);

      expect(body.length).toBeGreaterThan(MAX_BODY_BYTES);
      expect(request.event.body).toEqual({ a: expect.any(String) });
    });

    it.each([
      ['exactly 5 MiB (one = of padding)', MAX_BODY_BYTES],
      ['one byte under 5 MiB (two = of padding)', MAX_BODY_BYTES - 1],
    ])('takes a body of %s, as it takes the same body sent as text', async (_case, bytes) => {
      const text = objectOfBytes(bytes);
      const request = withBody(encoded(text), { isBase64Encoded: true });

      await runBefore(jsonBody(), request);

      expect(encoded(text)).toMatch(/[^=]=?=$/);
      expect(request.event.body).toEqual({ a: expect.any(String) });
    });

    it('is checked for nesting once decoded', async () => {
      await expect(
        runBefore(jsonBody(), withBody(encoded(nestedObject(33)), { isBase64Encoded: true })),
      ).rejects.toMatchObject({
        code: 'invalid_json',
        message: 'The request body is nested deeper than 32 levels.',
      });
    });
  });

  it.each([
    ['no Content-Type', {}],
    ['application/json', { 'content-type': 'application/json' }],
    ['application/json; charset=utf-8', { 'Content-Type': 'application/json; charset=utf-8' }],
    ['application/vnd.api+json', { 'content-type': 'application/vnd.api+json' }],
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/x-www-form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }],
  ])('parses JSON sent with %s', async (_contentType, headers) => {
    const request = withBody('{"name":"Ada"}', { headers });

    await runBefore(jsonBody(), request);

    expect(request.event.body).toEqual({ name: 'Ada' });
  });
});
