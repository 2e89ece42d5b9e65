/**
 * @logLevel DEBUG
 */
import { db } from '#lib/platform/table/client';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

/** Captures the structured log lines written while `act` runs. */
async function captureLogs(act: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const errorSpy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await act();
  } finally {
    spy.mockRestore();
    errorSpy.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('request pipeline', () => {
  let studio: TestTenant;
  beforeAll(async () => {
    studio = await createTestTenant();
  });

  it('behind the API front, refuses every request that came around it (403 direct_access_forbidden), webhook and unknown paths included', async () => {
    process.env.ORIGIN_VERIFY_SECRET = 'front-secret';
    try {
      const around = await Promise.all([
        api.call('/group-shoot/checkin/anytoken', { headers: { 'X-Tenant-Slug': 'anyone' } }),
        api.call('/webhooks/stripe', { method: 'POST', body: '{}' }),
        api.call('/nowhere'),
      ]);
      const through = await api.call('/nowhere', { headers: { 'X-Origin-Verify': 'front-secret' } });
      expect(around.map((answer) => [answer.status, answer.body.error])).toEqual(
        Array(3).fill([403, 'direct_access_forbidden']),
      );
      expect([through.status, through.body.error]).toEqual([404, 'not_found']);
    } finally {
      delete process.env.ORIGIN_VERIFY_SECRET;
    }
  });

  it('answers a path that leaves the stage (/v1/..// is //) with 404 not_found, not a failure of the local server', async () => {
    const answer = await api.call('/..//');
    expect([answer.status, answer.body.error, answer.headers.get('x-request-id')]).toEqual([
      404,
      'not_found',
      answer.body.requestId,
    ]);
  });

  it('answers an unexpected failure with 500 internal_error, the request ID, and no internals', async () => {
    // Prepare: the store fails in a way no code path expects.
    const failure = 'store exploded at /var/task/secret-path.js:42';
    db.middlewareStack.add(
      () => async () => {
        throw new Error(failure);
      },
      { step: 'initialize', name: 'explode' },
    );
    let answer;
    let logs: Record<string, unknown>[];
    try {
      // Act
      logs = await captureLogs(async () => {
        answer = await api.call(`/group-shoot/checkin/${studio.token}`, { headers: studio.publicHeaders });
      });
    } finally {
      db.middlewareStack.remove('explode');
    }
    // Assess
    expect(answer!.status).toBe(500);
    expect(answer!.body).toEqual({
      ok: false,
      error: 'internal_error',
      message: expect.any(String),
      requestId: answer!.headers.get('x-request-id'),
    });
    expect(JSON.stringify(answer!.body)).not.toContain('exploded');
    const errorLine = logs.find((line) => line.message === 'unexpected error');
    // Logged by its name and the frames of our code that led to it; its message never (lib/platform/logger.ts).
    expect(errorLine).toEqual(
      expect.objectContaining({
        requestId: answer!.body.requestId,
        level: 'ERROR',
        error: expect.objectContaining({
          name: 'Error',
          stack: expect.arrayContaining([expect.stringContaining('tenant-resolution.ts')]),
        }),
      }),
    );
    expect(JSON.stringify(errorLine)).not.toContain('exploded');
  });

  it('logs one structured access line per request with request ID, tenant and route, and never the key', async () => {
    let answer;
    const logs = await captureLogs(async () => {
      answer = await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
    });
    expect(answer!.status).toBe(200);
    const accessLines = logs.filter((line) => line.message === 'request completed');
    expect(accessLines).toHaveLength(1);
    expect(accessLines[0]).toEqual(
      expect.objectContaining({
        requestId: answer!.body.requestId,
        tenant: studio.slug,
        route: 'listShootingDays',
        status: 200,
        apiKeyId: studio.key.keyId,
      }),
    );
    const everything = JSON.stringify(logs);
    expect(everything).not.toContain(studio.apiKey);
    expect(everything).not.toContain(studio.token);
  });

  it('keeps the key out of the logs of a refused request too', async () => {
    const logs = await captureLogs(() =>
      api.call(`/groupshoot/${studio.token}/days`, {
        headers: { 'X-Tenant-Slug': studio.slug, 'X-Api-Key': `gsk_${'Z'.repeat(40)}` },
      }),
    );
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain('Z'.repeat(40));
  });

  it("does not let one request's tenant leak into the next request's log lines", async () => {
    const logs = await captureLogs(async () => {
      await api.call(`/groupshoot/${studio.token}/days`, { headers: studio.serverHeaders });
      await api.call(`/groupshoot/${studio.token}/days`, { headers: {} });
    });
    const accessLines = logs.filter((line) => line.message === 'request completed');
    expect(accessLines).toHaveLength(2);
    expect(accessLines[1]!.tenant).toBeUndefined();
  });
});
