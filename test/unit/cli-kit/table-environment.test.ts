import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireEnvironment, useLocalTable } from '../../../scripts/cli-kit/table-environment';
import { LOCAL_WEBHOOK_SEALING_KEY } from '../../../scripts/local/local-secrets';
import { LIVE_PROCESS_IDS, stoppedProcessId, writeServerFile } from '../../support/connection-files';

const [thisProcess, parentProcess] = LIVE_PROCESS_IDS;
const LOCAL_SERVER = {
  pid: thisProcess,
  port: 3000,
  tableName: 'groupshoot-local',
  dynamoDbEndpoint: 'http://127.0.0.1:4567',
  mediaBucket: 'groupshoot-local-media',
  s3Endpoint: 'http://127.0.0.1:4568',
};

describe('useLocalTable', () => {
  let workingDirectory: string;
  beforeEach(() => {
    workingDirectory = mkdtempSync(join(tmpdir(), 'table-environment-'));
  });
  afterEach(() => {
    rmSync(workingDirectory, { recursive: true, force: true });
  });

  it('takes the table, bucket and endpoints of the one running server, with local credentials', () => {
    // Prepare
    const file = writeServerFile(workingDirectory, LOCAL_SERVER);
    const env: NodeJS.ProcessEnv = {};
    // Act
    const note = useLocalTable({ env, workingDirectory });
    // Assess
    expect(env).toEqual({
      TABLE_NAME: 'groupshoot-local',
      DYNAMODB_ENDPOINT: 'http://127.0.0.1:4567',
      MEDIA_BUCKET: 'groupshoot-local-media',
      S3_ENDPOINT: 'http://127.0.0.1:4568',
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      WEBHOOK_SEALING_KEY: LOCAL_WEBHOOK_SEALING_KEY,
      LOCAL_STACK: 'true',
    });
    expect(note).toBe(
      `Using the local table "groupshoot-local" at http://127.0.0.1:4567 (npm start on port 3000, from ${file})`,
    );
  });

  it('takes the server that --data DIR names, beside another that runs', () => {
    // Prepare
    writeServerFile(workingDirectory, { ...LOCAL_SERVER, tableName: 'in-memory' });
    writeServerFile(workingDirectory, {
      ...LOCAL_SERVER,
      pid: parentProcess,
      port: 3001,
      tableName: 'persisted',
      dataDir: join(workingDirectory, 'data'),
    });
    const env: NodeJS.ProcessEnv = {};
    // Act
    const note = useLocalTable({ env, workingDirectory }, 'data');
    // Assess
    expect(env.TABLE_NAME).toBe('persisted');
    expect(note).toContain(`(npm start on port 3001, from ${join(workingDirectory, 'data', 'local-api.json')})`);
  });

  it('reads no file when TABLE_NAME is set: the environment wins', () => {
    writeServerFile(workingDirectory, LOCAL_SERVER);
    const env: NodeJS.ProcessEnv = { TABLE_NAME: 'real-table' };
    expect(useLocalTable({ env, workingDirectory })).toBeUndefined();
    expect(env).toEqual({ TABLE_NAME: 'real-table' });
  });

  it('refuses --data DIR beside TABLE_NAME, which might name a deployed table', () => {
    const env: NodeJS.ProcessEnv = { TABLE_NAME: 'real-table' };
    expect(() => useLocalTable({ env, workingDirectory }, 'data')).toThrow(
      '--data data names a local server, but TABLE_NAME is set ("real-table"): unset TABLE_NAME to use the server, or leave out --data',
    );
  });

  it('leaves the environment alone when no server runs, or only a stopped one left its file', async () => {
    const env: NodeJS.ProcessEnv = {};
    expect(useLocalTable({ env, workingDirectory })).toBeUndefined();
    writeServerFile(workingDirectory, { ...LOCAL_SERVER, pid: await stoppedProcessId() });
    expect(useLocalTable({ env, workingDirectory })).toBeUndefined();
    expect(env).toEqual({});
  });

  it('refuses the file of a running server that lacks the table', () => {
    const file = writeServerFile(workingDirectory, { pid: thisProcess, port: 3000 });
    expect(() => useLocalTable({ env: {}, workingDirectory })).toThrow(`${file} has no tableName and dynamoDbEndpoint`);
  });
});

describe('requireEnvironment', () => {
  it('names every variable the command needs that is not set', () => {
    expect(() => requireEnvironment({ TABLE_NAME: 't' }, ['TABLE_NAME', 'MEDIA_BUCKET'])).toThrow(
      /^MEDIA_BUCKET is not set: export MEDIA_BUCKET /,
    );
    expect(() => requireEnvironment({ MEDIA_BUCKET: '' }, ['TABLE_NAME', 'MEDIA_BUCKET'])).toThrow(
      /^TABLE_NAME and MEDIA_BUCKET are not set: /,
    );
    expect(() => requireEnvironment({ TABLE_NAME: 't' }, ['TABLE_NAME'])).not.toThrow();
  });
});
