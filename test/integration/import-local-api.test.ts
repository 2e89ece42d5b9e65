import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { UsageError } from '../../scripts/cli-kit/cli-errors';
import { connectLocalApi } from '../../scripts/cli-kit/local-api';
import { runImport } from '../../scripts/import/run-import';
import { LIVE_PROCESS_IDS, stoppedProcessId, writeServerFile } from '../support/connection-files';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

/** A local URL where nothing listens: a port that was free a moment ago. */
async function deadBaseUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe('npm run import finds the running npm start', () => {
  let studio: TestTenant;
  let workingDirectory: string;
  let output: string[];
  const io = { out: (line: string) => output.push(line), err: (line: string) => output.push(line), interactive: false };
  /** The command with no connection options and an empty environment: only a connection file can help. */
  const run = (file: string, ...extra: string[]) =>
    runImport([file, '--gallery', studio.token, ...extra], io, undefined, { env: {}, workingDirectory });
  /** The connection file of a server run by this test process, which is alive, as npm start writes it. */
  const writeServer = (info: Record<string, unknown>) =>
    writeServerFile(workingDirectory, { pid: process.pid, port: 3000, ...info });
  const staffFile = (content: string) => {
    const file = join(workingDirectory, 'staff.csv');
    writeFileSync(file, content);
    return file;
  };

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  beforeEach(() => {
    workingDirectory = mkdtempSync(join(tmpdir(), 'import-local-api-'));
    output = [];
  });

  it('imports through the one running server once it answers with its tenant and key, and says so', async () => {
    // Prepare
    const serverFile = writeServer({
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
      galleryToken: studio.token,
    });
    const file = staffFile('Name,Employee ID\nAda Lovelace,L-1\n');
    // Act
    const code = await run(file);
    // Assess
    expect(output).toContain(`Using the local API at ${api.url} (from ${serverFile})`);
    expect(output.join('\n')).toContain('Imported 1 of 1 rows, 0 skipped.');
    expect(code).toBe(0);
    const client = new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });
    expect(
      (await client.listPersons(studio.token, { employeeId: 'L-1' })).persons.map((person) => person.name),
    ).toEqual(['Ada Lovelace']);
  });

  it('imports through the server --data DIR names, beside another one', async () => {
    // Prepare: a second live server that would be refused, and the one started with --data.
    writeServerFile(workingDirectory, {
      pid: LIVE_PROCESS_IDS[1],
      port: 3001,
      baseUrl: await deadBaseUrl(),
      tenantSlug: 'other',
      apiKey: 'other',
    });
    const dataDir = join(workingDirectory, 'data');
    writeServer({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey, dataDir });
    const file = staffFile('Name,Employee ID\nKatherine Johnson,J-1\n');
    // Act
    const code = await run(file, '--data', dataDir);
    // Assess
    expect(output).toContain(`Using the local API at ${api.url} (from ${join(dataDir, 'local-api.json')})`);
    expect(output.join('\n')).toContain('Imported 1 of 1 rows');
    expect(code).toBe(0);
  });

  it('refuses with exit 2 when two servers run, naming both ports, and sends nothing', async () => {
    // Prepare
    writeServer({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });
    writeServerFile(workingDirectory, {
      pid: LIVE_PROCESS_IDS[1],
      port: 3001,
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
    });
    const file = staffFile('Name,Employee ID\nGrace Hopper,R-1\n');
    // Act
    const code = await run(file);
    // Assess
    expect(code).toBe(2);
    expect(output.join('\n')).toMatch(
      /2 local servers run from .*: port 3000 \(pid \d+, in memory\), port 3001 \(pid \d+, in memory\); name one with --data DIR .*, or give --base-url, --tenant and --api-key/,
    );
    const client = new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });
    expect((await client.listPersons(studio.token, { employeeId: 'R-1' })).persons).toEqual([]);
  });

  it('ignores the file of a server that has stopped', async () => {
    writeServerFile(workingDirectory, {
      pid: await stoppedProcessId(),
      port: 3000,
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
    });
    const code = await run(staffFile('Name\nAda Lovelace\n'));
    expect(code).toBe(2);
    expect(output.join('\n')).toContain('The API URL, tenant and API key are needed');
  });

  it('stops with exit 2 and says so when the running server does not answer', async () => {
    const baseUrl = await deadBaseUrl();
    const serverFile = writeServer({ baseUrl, tenantSlug: studio.slug, apiKey: studio.apiKey });
    const code = await run(staffFile('Name\nAda Lovelace\n'));
    expect(code).toBe(2);
    expect(output.join('\n')).toContain(`No local API answers at ${baseUrl}, the server ${serverFile} names`);
  });

  it.each([
    ['another tenant', { tenantSlug: 'no-such-studio' }],
    ['another key', { apiKey: 'gsk_not_a_key_of_this_server' }],
  ])('refuses a server that does not know the tenant and key of its file (%s)', async (_case, stale) => {
    const server = {
      file: 'local-api.json',
      info: { baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey, ...stale },
    };
    await expect(connectLocalApi(server)).rejects.toThrow(UsageError);
    await expect(connectLocalApi(server)).rejects.toThrow(/does not know the tenant and key/);
  });

  it('refuses a connection file without the connection', async () => {
    await expect(connectLocalApi({ file: 'local-api.json', info: { tableName: 'groupshoot-local' } })).rejects.toThrow(
      /has no baseUrl, tenantSlug and apiKey/,
    );
  });

  it('reads no connection file when the options and environment give the connection', async () => {
    // Prepare: a running server that would fail the import, were its file read.
    writeServer({ baseUrl: await deadBaseUrl(), tenantSlug: 'stale', apiKey: 'stale' });
    writeServerFile(workingDirectory, { pid: LIVE_PROCESS_IDS[1], port: 3001 });
    const file = staffFile('Name,Employee ID\nGrace Hopper,H-1\n');
    // Act
    const code = await runImport([file, '--gallery', studio.token, '--base-url', api.url], io, undefined, {
      env: { GROUPSHOOT_TENANT: studio.slug, GROUPSHOOT_API_KEY: studio.apiKey },
      workingDirectory,
    });
    // Assess
    expect(output.join('\n')).toContain('Imported 1 of 1 rows');
    expect(output.join('\n')).not.toContain('Using the local API');
    expect(code).toBe(0);
  });

  it('refuses --data DIR beside a connection the options and environment give whole', async () => {
    const code = await run(
      staffFile('Name\nAda Lovelace\n'),
      '--data',
      'data',
      '--base-url',
      api.url,
      '--tenant',
      studio.slug,
      '--api-key',
      studio.apiKey,
    );
    expect(code).toBe(2);
    expect(output).toContain(
      '--data data names a local server, but the URL, tenant and key are all given (options or environment): leave out --data, or the others',
    );
  });

  it('exits 2 when there is neither a connection nor a running server', async () => {
    expect(await run(staffFile('Name\nAda Lovelace\n'))).toBe(2);
    expect(output.join('\n')).toContain('The API URL, tenant and API key are needed');
  });
});
