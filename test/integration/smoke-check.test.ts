import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DynamoDBClient, ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { SmokeReport } from '../../scripts/smoke/run-smoke';
import { processesInGroup, spawnNpmStart, waitForBanner, withoutTestEnvironment } from '../support/npm-start';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** Every item of the local server's table, as text, for what must not be in it any more. */
async function tableItems(endpoint: string, tableName: string): Promise<string[]> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'eu-central-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const items: string[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []).map((item) => JSON.stringify(item)));
    start = page.LastEvaluatedKey;
  } while (start);
  client.destroy();
  return items;
}

/** Every object of the local bucket (the local S3 server keeps no versions) whose key names the gallery. */
async function objectsOfGallery(endpoint: string, bucket: string, token: string): Promise<string[]> {
  const client = new S3Client({
    endpoint,
    region: 'eu-central-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const keys: string[] = [];
  for (const prefix of ['photos/', 'selfies/', 'thumbnails/']) {
    const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    keys.push(...(listing.Contents ?? []).map((object) => object.Key!));
  }
  client.destroy();
  return keys.filter((key) => key.includes(`/${token}/`));
}

/** The environment of a terminal: none of the test run's own table, bucket and keys, which would win over npm start's. */
function terminalEnvironment(): NodeJS.ProcessEnv {
  const env = withoutTestEnvironment(process.env);
  for (const name of Object.keys(env))
    if (
      /^(MEDIA_BUCKET|S3_ENDPOINT|SQS_ENDPOINT|SES_ENDPOINT|WEBHOOK_|LOCAL_|CLOUDFRONT_|PHOTO_|STRIPE_|AWS_)/.test(name)
    )
      delete env[name];
  return env;
}

/** What an item left over is, by the attributes it has (the keys' prefixes are the stores' own). */
function kindOf(item: Record<string, unknown>): string {
  if ('tat' in item) return 'rate-limit counter';
  if ('attemptLog' in item && 'subscriptionId' in item) return 'webhook delivery';
  return JSON.stringify(item);
}

/** Runs the smoke check as a terminal does; a failed step exits 1, and the report on standard output says which. */
async function smoke(argv: string[], env: NodeJS.ProcessEnv = terminalEnvironment()): Promise<SmokeReport> {
  const { stdout } = await run('npx', ['tsx', 'scripts/smoke/cli.ts', ...argv, '--json'], { cwd: ROOT, env }).catch(
    (error: { stdout: string; stderr: string }) => ({ stdout: error.stdout || error.stderr }),
  );
  return JSON.parse(stdout) as SmokeReport;
}

describe('npm run smoke against npm start', () => {
  // npm start with a data folder of its own, so the smoke check names it and no other.
  const dataDir = mkdtempSync(join(tmpdir(), 'smoke-check-'));
  let child: ReturnType<typeof spawnNpmStart>;
  let exited: Promise<void>;
  let connection: Record<
    'tableName' | 'dynamoDbEndpoint' | 'mediaBucket' | 's3Endpoint' | 'baseUrl' | 'tenantSlug',
    string
  >;
  beforeAll(async () => {
    child = spawnNpmStart(['--port', '0', '--data', dataDir], { cwd: ROOT, env: terminalEnvironment() });
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    await waitForBanner(child);
    connection = JSON.parse(readFileSync(join(dataDir, 'local-api.json'), 'utf8')) as typeof connection;
  }, 120_000);
  afterAll(async () => {
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    for (let attempt = 0; attempt < 50 && processesInGroup(child.pid!).length > 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('passes every step, and leaves none of the persons, galleries and objects it made behind', async () => {
    // Act
    const report = await smoke(['--data', dataDir, '--webhook-port', '0', '--wait', '60']);

    // Assess: every step passed, the webhook's round trip and the clean-up among them.
    expect(report.results.filter((result) => result.outcome !== 'pass')).toEqual([]);
    expect(report.results.map((result) => result.step)).toEqual(
      expect.arrayContaining(['check-in', 'import of one row', 'photo upload (presigned)', 'webhook delivery']),
    );
    expect(report.passed).toBe(true);
    const { galleryToken, personIds, subscriptionId } = report.made;
    expect(galleryToken).toMatch(/^[0-9a-z]{16}$/);
    expect(personIds).toHaveLength(2);
    // No person, gallery or object of it is left. What names the gallery still is what expires by
    // itself and holds no personal data: the public rate limit's counter and the removed
    // subscription's delivery log (docs/deployment.md#after-a-deploy-npm-run-smoke).
    const items = (await tableItems(connection.dynamoDbEndpoint, connection.tableName)).map(
      (text) => JSON.parse(text) as Record<string, { S?: string; N?: string }>,
    );
    expect(items.length).toBeGreaterThan(0);
    const naming = (made: string) => items.filter((item) => JSON.stringify(item).includes(made));
    for (const personId of personIds) expect(naming(personId)).toEqual([]);
    const leftOver = naming(galleryToken!);
    expect(new Set(leftOver.map(kindOf))).toEqual(new Set(['rate-limit counter', 'webhook delivery']));
    for (const item of leftOver) expect(Number(item.expiresAt?.N)).toBeGreaterThan(0);
    expect(new Set(naming(subscriptionId!).map(kindOf))).toEqual(new Set(['webhook delivery']));
    expect(await objectsOfGallery(connection.s3Endpoint, connection.mediaBucket, galleryToken!)).toEqual([]);
  }, 180_000);

  it('fails where the API refuses, and still erases what it made (the table named by the environment, as in AWS)', async () => {
    // Prepare: URL, tenant and a wrong key given, the table and bucket by the environment, no npm start looked up.
    const env = {
      ...terminalEnvironment(),
      TABLE_NAME: connection.tableName,
      DYNAMODB_ENDPOINT: connection.dynamoDbEndpoint,
      MEDIA_BUCKET: connection.mediaBucket,
      S3_ENDPOINT: connection.s3Endpoint,
      AWS_REGION: 'eu-central-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
    };
    const argv = ['--api-url', connection.baseUrl, '--tenant', connection.tenantSlug, '--api-key', 'gsk_not_a_key'];

    // Act
    const report = await smoke(argv, env);

    // Assess
    const outcomes = Object.fromEntries(report.results.map((result) => [result.step, result.outcome]));
    expect(report.passed).toBe(false);
    expect(outcomes).toEqual(
      expect.objectContaining({
        'throwaway gallery': 'pass',
        'check-in': 'pass',
        'import of one row': 'fail',
        'persons read': 'skipped',
        'photo upload (presigned)': 'skipped',
        'clean-up: gallery erased': 'pass',
      }),
    );
    const items = await tableItems(connection.dynamoDbEndpoint, connection.tableName);
    expect(report.made.personIds).toHaveLength(1);
    expect(items.filter((item) => item.includes(report.made.personIds[0]!))).toEqual([]);
    expect(
      items.filter((item) => item.includes(report.made.galleryToken!)).map((text) => kindOf(JSON.parse(text))),
    ).toEqual(['rate-limit counter']);
  }, 180_000);
});
