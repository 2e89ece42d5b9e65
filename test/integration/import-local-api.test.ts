import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { LocalApiUnavailableError, findLocalApi } from '../../scripts/admin/local-environment';
import { runImport } from '../../scripts/import/run-import';
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
  let directory: string;
  let infoFile: string;
  let output: string[];
  const io = { out: (line: string) => output.push(line), err: (line: string) => output.push(line), interactive: false };
  /** The command with no connection options and an empty environment: only the info file can help. */
  const run = (file: string) => runImport([file, '--gallery', studio.token], io, undefined, { env: {}, localApiInfoFile: infoFile });
  const writeInfo = (info: Record<string, unknown>) => writeFileSync(infoFile, JSON.stringify(info));

  beforeAll(async () => {
    studio = await createTestTenant();
  });

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'import-local-api-'));
    infoFile = join(directory, 'local-api.json');
    output = [];
  });

  it('imports through the server the info file names once it answers with that tenant and key', async () => {
    // Prepare: what npm start (with or without --data) writes to .local/local-api.json
    writeInfo({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey, galleryToken: studio.token });
    const file = join(directory, 'staff.csv');
    writeFileSync(file, 'Name,Employee ID\nAda Lovelace,L-1\n');
    // Act
    const code = await run(file);
    // Assess
    expect(output.join('\n')).toContain('Imported 1 of 1 rows, 0 skipped.');
    expect(code).toBe(0);
    const client = new GroupShootClient({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey });
    expect((await client.listPersons(studio.token, { employeeId: 'L-1' })).persons.map((person) => person.name)).toEqual(['Ada Lovelace']);
  });

  it('stops with exit 2 and says so when the recorded server does not answer', async () => {
    const baseUrl = await deadBaseUrl();
    writeInfo({ baseUrl, tenantSlug: studio.slug, apiKey: studio.apiKey });
    const file = join(directory, 'staff.csv');
    writeFileSync(file, 'Name\nAda Lovelace\n');
    const code = await run(file);
    expect(code).toBe(2);
    expect(output.join('\n')).toContain(`No local API answers at ${baseUrl}, the server ${infoFile} names`);
  });

  it.each([
    ['another tenant', { tenantSlug: 'no-such-studio' }],
    ['another key', { apiKey: 'gsk_not_a_key_of_this_server' }],
  ])('refuses a server that does not know the recorded tenant and key (%s)', async (_case, stale) => {
    writeInfo({ baseUrl: api.url, tenantSlug: studio.slug, apiKey: studio.apiKey, ...stale });
    await expect(findLocalApi(infoFile)).rejects.toThrow(LocalApiUnavailableError);
    await expect(findLocalApi(infoFile)).rejects.toThrow(/does not know the tenant and key/);
  });

  it('answers undefined without a file, and refuses a file without the connection', async () => {
    await expect(findLocalApi(join(directory, 'absent.json'))).resolves.toBeUndefined();
    writeInfo({ tableName: 'groupshoot-local' });
    await expect(findLocalApi(infoFile)).rejects.toThrow(/has no baseUrl, tenantSlug and apiKey/);
  });

  it('needs no file when the options and environment give the connection', async () => {
    writeInfo({ baseUrl: await deadBaseUrl(), tenantSlug: 'stale', apiKey: 'stale' });
    const file = join(directory, 'staff.csv');
    writeFileSync(file, 'Name,Employee ID\nGrace Hopper,H-1\n');
    const code = await runImport([file, '--gallery', studio.token, '--base-url', api.url], io, undefined, {
      env: { GROUPSHOOT_TENANT: studio.slug, GROUPSHOOT_API_KEY: studio.apiKey },
      localApiInfoFile: infoFile,
    });
    expect(output.join('\n')).toContain('Imported 1 of 1 rows');
    expect(code).toBe(0);
  });

  it('exits 2 when there is neither a connection nor a file', async () => {
    infoFile = join(directory, 'absent.json');
    const file = join(directory, 'staff.csv');
    writeFileSync(file, 'Name\nAda Lovelace\n');
    expect(await run(file)).toBe(2);
    expect(output.join('\n')).toContain('The API URL, tenant and API key are needed');
  });
});
