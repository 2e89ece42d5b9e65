import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../scripts/cli-kit/cli-errors';
import { findLocalServer, isProcessAlive } from '../../../scripts/cli-kit/local-servers';
import { LIVE_PROCESS_IDS, stoppedProcessId, writeDataFile, writeServerFile } from '../../support/connection-files';

const [thisProcess, parentProcess] = LIVE_PROCESS_IDS;
const OTHERWISE = 'set TABLE_NAME yourself';

describe('findLocalServer', () => {
  let workingDirectory: string;
  const find = (dataDir?: string) => findLocalServer({ workingDirectory, dataDir, otherwise: OTHERWISE });
  beforeEach(() => {
    workingDirectory = mkdtempSync(join(tmpdir(), 'local-servers-'));
  });
  afterEach(() => {
    rmSync(workingDirectory, { recursive: true, force: true });
  });

  it('finds no server where npm start never ran', () => {
    expect(find()).toBeUndefined();
  });

  it('uses the one live server', () => {
    // Prepare
    const file = writeServerFile(workingDirectory, { pid: thisProcess, port: 3000, tableName: 'groupshoot-local' });
    // Act
    const server = find();
    // Assess
    expect(server).toEqual({
      file,
      info: expect.objectContaining({ pid: thisProcess, port: 3000, tableName: 'groupshoot-local' }),
    });
  });

  it('skips the file of a server whose process has gone', async () => {
    // Prepare: a server killed without its clean-up, and one that runs.
    writeServerFile(workingDirectory, { pid: await stoppedProcessId(), port: 3000 });
    // Act
    const alone = find();
    const live = writeServerFile(workingDirectory, { pid: thisProcess, port: 3001 });
    const beside = find();
    // Assess
    expect(alone).toBeUndefined();
    expect(beside?.file).toBe(live);
  });

  it('refuses two live servers in one line that names both ports and the ways out', () => {
    // Prepare
    writeServerFile(workingDirectory, { pid: thisProcess, port: 3000 });
    writeServerFile(workingDirectory, { pid: parentProcess, port: 3001, dataDir: join(workingDirectory, 'data') });
    // Act
    let refusal: unknown;
    try {
      find();
    } catch (error) {
      refusal = error;
    }
    // Assess
    expect(refusal).toBeInstanceOf(UsageError);
    const message = (refusal as UsageError).message;
    expect(message).toMatch(/^2 local servers run from /);
    expect(message).toContain(`port 3000 (pid ${thisProcess}, in memory)`);
    expect(message).toContain(`port 3001 (pid ${parentProcess}, --data ${join(workingDirectory, 'data')})`);
    expect(message).toContain(`name one with --data DIR`);
    expect(message).toContain(OTHERWISE);
    expect(message).not.toContain('\n');
  });

  it('reads DIR/local-api.json for --data DIR, however many servers run', () => {
    // Prepare
    writeServerFile(workingDirectory, { pid: thisProcess, port: 3000 });
    writeServerFile(workingDirectory, { pid: parentProcess, port: 3001, dataDir: join(workingDirectory, 'data') });
    // Act
    const server = find('data');
    // Assess
    expect(server).toEqual({
      file: join(workingDirectory, 'data', 'local-api.json'),
      info: expect.objectContaining({ port: 3001 }),
    });
  });

  it.each<[string, (dataDir: string) => Promise<void>, RegExp]>([
    [
      'no connection file',
      async () => undefined,
      /^--data data: there is no .*local-api\.json; start the server with npm start -- --data data$/,
    ],
    [
      'a file that is not JSON',
      async (dataDir) => {
        mkdirSync(dataDir);
        writeFileSync(join(dataDir, 'local-api.json'), 'not json');
      },
      /is not a connection file of npm start/,
    ],
    [
      'the file of a server that has stopped',
      async (dataDir) => {
        writeDataFile(dataDir, { pid: await stoppedProcessId(), port: 3000, tableName: 'old' });
      },
      /^--data data: the server that wrote .*local-api\.json \(pid \d+\) has stopped; start it again with npm start -- --data data$/,
    ],
  ])('refuses --data DIR with %s', async (_case, prepare, message) => {
    await prepare(join(workingDirectory, 'data'));
    expect(() => find('data')).toThrow(message);
  });

  it('skips files in .local/servers that are not connection files', () => {
    const folder = join(workingDirectory, '.local', 'servers');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, '1.json'), 'not json');
    writeFileSync(join(folder, '2.json'), JSON.stringify([thisProcess]));
    writeFileSync(join(folder, '3.json'), JSON.stringify({ port: 3000 }));
    expect(find()).toBeUndefined();
  });
});

describe('isProcessAlive', () => {
  it('tells a running process from one that has exited', async () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(await stoppedProcessId())).toBe(false);
  });
});
