import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StudioQueueResult } from '../../scripts/bench/studio-queue';
import type { CheckinPageResult } from '../../scripts/bench/checkin-page';
import { type FaceIngestResult, PLACEMENT_WITHOUT_FACES_FLOOR } from '../../scripts/bench/face-ingest';
import type { PhotoIngestResult } from '../../scripts/bench/photo-ingest';
import type { FaceFramingResult } from '../../scripts/bench/face-framing';
import type { HrExportBenchResult } from '../../scripts/bench/hr-export';
import type { WebhookDeliveryResult } from '../../scripts/bench/webhook-delivery';
import type { BurstResult, EdgeBurstResult } from '../../scripts/bench/announcement-burst';
import type { ScaleResult } from '../../scripts/bench/scale';

const ROOT = join(__dirname, '..', '..');
const runFile = promisify(execFile);

/** The test run's table and endpoints must not leak into the bench: it starts its own. */
function withoutTestEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TABLE_NAME: _table, DYNAMODB_ENDPOINT: _dynamoDb, S3_ENDPOINT: _s3, MEDIA_BUCKET: _bucket, ...rest } = env;
  return rest;
}

const isPositive = (value: unknown) => typeof value === 'number' && value > 0;

describe('npm run bench -- --smoke', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('measures every figure on services of its own and writes them as JSON', async () => {
    // Prepare
    const outFile = join(outDir, 'bench-results.json');

    // Act
    const { stdout } = await runFile('npx', ['tsx', 'scripts/bench/run-bench.ts', '--smoke', '--out', outFile], {
      cwd: ROOT,
      env: withoutTestEnvironment(process.env),
      // About three minutes alone (the load and the announcement burst in child processes, the check-in page's Lighthouse run, the scale section's two galleries); beside the rest of the suite on two cores it has taken over twice that.
      timeout: 450_000,
    });
    const results = JSON.parse(readFileSync(outFile, 'utf8'));

    // Assess
    expect(results.mode).toBe('smoke');
    expect(results.coldStarts).toHaveLength(2);
    for (const row of results.coldStarts) {
      expect([
        row.bundle,
        isPositive(row.sizeKb),
        isPositive(row.medianInitMilliseconds),
        isPositive(row.ratioToBaseline),
        isPositive(row.cpuRatioToBaseline),
      ]).toEqual([row.bundle, true, true, true, true]);
    }
    const imports = results.importComparison;
    expect([imports.apiMedianMilliseconds, imports.sdkAloneMedianMilliseconds, imports.ratio].every(isPositive)).toBe(
      true,
    );
    // On DynamoDB Local as it is, and in a child process through the DynamoDB with AWS-like latency.
    expect(stdout).toContain("### Load with AWS-like DynamoDB latency (the goal's measure)");
    for (const load of [results.load, results.loadAwsLike]) {
      expect(load.map((row: { scenario: string }) => row.scenario)).toEqual([
        'GET check-in info (public)',
        'GET persons (server-side, 4 keys)',
        'POST /group-shoot submitCheckin (free)',
      ]);
    }
    for (const row of [...results.load, ...results.loadAwsLike]) {
      const sides = [
        row.functionsInProcess,
        row.dynamoDbAlone,
        row.saturated.functionsInProcess,
        row.saturated.dynamoDbAlone,
      ];
      const figures = sides.flatMap((side) => [side.p50Milliseconds, side.p99Milliseconds, side.requestsPerSecond]);
      const ratios = [row.arrivalRatePerSecond, row.p50Ratio, row.p99Ratio, row.throughputRatio];
      expect([row.scenario, figures.every(isPositive), ratios.every(isPositive)]).toEqual([row.scenario, true, true]);
    }
    const { abuse } = results;
    expect(stdout).toContain('### Abuse');
    expect(abuse.calm.withFlood.refused + abuse.calm.withoutFlood.refused).toBe(0);
    expect(abuse.flooderRequests).toBeGreaterThan(abuse.flooderAdmitted);
    expect(abuse.flooderSpots).toBe(abuse.flooderAdmitted);
    expect(abuse.flooderAdmitted).toBeLessThanOrEqual(abuse.flooderBudget);
    expect(abuse.writesByRefused).toBe(0);
    const { lookupAbuse } = results;
    expect(stdout).toContain('### Abuse: a distributed guesser of photo lookups');
    expect([
      lookupAbuse.participantRefusals,
      lookupAbuse.guesserSuccesses,
      lookupAbuse.participantReachedPhotos,
    ]).toEqual([0, 0, lookupAbuse.participantLooks]);
    expect(lookupAbuse.participantLooks).toBeGreaterThanOrEqual(1);
    expect(isPositive(abuse.p99Ratio)).toBe(true);
    const { checkins, import: imported } = results.webhookDelivery as WebhookDeliveryResult;
    expect(stdout).toContain('### Webhook delivery');
    // Two events per free check-in and one per imported person, each verified at the receiver.
    expect([checkins.requests, checkins.delivery.events]).toEqual([20, 40]);
    expect([imported.rows, imported.distinctEvents, imported.delivery.events]).toEqual([20, 20, 20]);
    const answers = [checkins.withoutDelivery, checkins.withDelivery].flatMap((side) => [
      side.p50Milliseconds,
      side.p99Milliseconds,
      side.requestsPerSecond,
    ]);
    expect(answers.every(isPositive)).toBe(true);
    for (const latency of [checkins.delivery, imported.delivery]) {
      expect([latency.p50Milliseconds, latency.p99Milliseconds].every(isPositive)).toBe(true);
      expect(latency.p50Milliseconds).toBeLessThanOrEqual(latency.p99Milliseconds);
      const stages = Object.values(latency.stages).flatMap((stage) => [stage.p50Milliseconds, stage.p99Milliseconds]);
      expect(stages.every((value) => value >= 0)).toBe(true);
    }
    expect([imported.importMilliseconds, imported.allDeliveredMilliseconds, imported.ratio].every(isPositive)).toBe(
      true,
    );
    const photos = results.photoIngest as PhotoIngestResult;
    expect(stdout).toContain('Photo ingest');
    expect([photos.cardsRead, photos.codesInPortraits]).toEqual([photos.cards, 0]);
    for (const side of [photos.reader, photos.sharpDecode]) {
      expect([side.medianMilliseconds, side.photosPerCoreSecond, side.peakRssMb].every(isPositive)).toBe(true);
    }
    expect([photos.timeRatio, photos.memoryRatio].every(isPositive)).toBe(true);
    const faceFraming = results.faceFraming as FaceFramingResult;
    expect(stdout).toContain("Faces on a 24 MP photo: describeFaces's search in one pass");
    expect(faceFraming.map((row) => row.photo)).toEqual(['a face at 40 % of the height', 'a face at 10 %', 'no face']);
    expect(faceFraming.flatMap((row) => [row.onePassMs, row.servicePathMs, row.ratio]).every(isPositive)).toBe(true);
    const faceIngest = results.faceIngest as FaceIngestResult;
    expect(stdout).toContain('Photo ingest with and without the second opinion from faces');
    expect([faceIngest.portraits, faceIngest.deliveredWithFaceMatching, faceIngest.roundTripsWithout]).toEqual([
      2,
      2,
      PLACEMENT_WITHOUT_FACES_FLOOR,
    ]);
    expect(
      [faceIngest.withoutFaceMatchingMs, faceIngest.withFaceMatchingMs, faceIngest.modelAloneMs].every(isPositive),
    ).toBe(true);
    const { checkinPage } = results as { checkinPage: CheckinPageResult };
    expect(stdout).toContain('Check-in page (Lighthouse');
    expect(checkinPage.files.map((file) => file.path)).toEqual(
      expect.arrayContaining(['/checkin/checkin.js', '/checkin/messages/de.js', '/checkin/qr-encoder.js']),
    );
    expect(
      [
        checkinPage.totalBytes,
        checkinPage.totalGzipBytes,
        checkinPage.lighthouse.performance,
        checkinPage.lighthouse.accessibility,
      ].every(isPositive),
    ).toBe(true);
    const hrExport = results.hrExport as HrExportBenchResult;
    expect(stdout).toContain('### HR export');
    expect(hrExport.builds.map((build) => build.persons)).toEqual([2, 4]);
    for (const side of [...hrExport.builds, hrExport.sharpAlone])
      expect([side.seconds, side.peakRssMb].every(isPositive)).toBe(true);
    expect([hrExport.timeRatio, hrExport.memoryRatio].every(isPositive)).toBe(true);
    const studioQueue = results.studioQueue as StudioQueueResult;
    expect(stdout).toContain('### Studio console: the first screen of a large review queue');
    expect(studioQueue.photos).toBe(24);
    expect(studioQueue.firstScreenImages).toBeGreaterThanOrEqual(4);
    // The announcement burst, in a child process against a DynamoDB that conflicts like the real one: both designs, every check-in accounted for.
    const { designs: bursts, throughEdge } = results.announcementBurst as {
      designs: BurstResult[];
      throughEdge: EdgeBurstResult[];
    };
    expect(stdout).toContain('### The announcement burst');
    expect(bursts.map((burst) => burst.counters)).toEqual(['spread', 'single']);
    for (const burst of bursts) {
      const failed = Object.values(burst.failed).reduce((sum, count) => sum + count, 0);
      expect(burst.admittedHot + burst.admittedOther + burst.refusedFull + failed).toBe(burst.participants);
      expect(burst.admittedHot).toBeGreaterThan(0);
      expect(burst.overbooked).toBe(0);
      expect(burst.hotDayBooked).toBe(burst.hotDayPersons);
      expect(burst.transactionsPerCheckin).toBeGreaterThanOrEqual(1);
      expect(isPositive(burst.p50Ms) && burst.p99Ms >= burst.p50Ms).toBe(true);
    }
    // Through the stack's edge: every request of each sender answered by a layer, the day exact, each paid check-in a session.
    const [edge] = throughEdge;
    const countedOf = (sender: Record<string, number>) =>
      Object.entries(sender)
        .filter(([name]) => !['requests', 'p50Ms', 'p99Ms'].includes(name))
        .reduce((sum, [, count]) => sum + count, 0);
    for (const sender of [edge!.tenantA, edge!.tenantBAlone, edge!.tenantB, edge!.flooder, edge!.paid])
      expect([countedOf(sender), isPositive(sender.p50Ms) && sender.p99Ms >= sender.p50Ms]).toEqual([
        sender.requests,
        true,
      ]);
    expect([edge!.tenantA.requests, edge!.flooder.requests, edge!.paid.requests]).toEqual([
      edge!.participants,
      edge!.flooderPerSecond * edge!.seconds,
      edge!.paidCheckins,
    ]);
    expect(edge!.tenantA.admitted).toBeGreaterThan(0);
    expect(edge!.tenantB.admitted).toBe(edge!.tenantB.requests);
    expect([edge!.overbooked, edge!.hotDayBooked]).toEqual([0, edge!.hotDayPersons]);
    expect([edge!.paid.admitted, edge!.checkoutSessions]).toEqual([edge!.paidCheckins, edge!.paidCheckins]);
    // The scale section (its reads are held by scale-smoke.test.ts): both galleries, every path, every job.
    const scale = results.scale as ScaleResult;
    expect(stdout).toContain('### Scale:');
    expect(scale.galleries.map((gallery) => gallery.persons)).toEqual([20, 100]);
    expect(scale.requests.length).toBeGreaterThanOrEqual(22);
    // The round trips of issue 30: every path with a floor, warm and cold, its calls and waves at each size.
    const withFloors = scale.requests.filter((row) => row.floor);
    expect(withFloors.length).toBeGreaterThanOrEqual(11);
    for (const row of withFloors) {
      const [at20, at100] = [row.at20!, row.at100!];
      expect([row.path, isPositive(row.floor!.calls) && isPositive(row.floor!.depth), typeof row.atFloor]).toEqual([
        row.path,
        true,
        'boolean',
      ]);
      for (const size of [at20, at100])
        expect([row.path, size.depth >= 1 && size.depth <= size.calls]).toEqual([row.path, true]);
    }
    expect(scale.background.filter((job) => !('msPerItem' in job))).toEqual([]);
    expect(
      [
        studioQueue.madeOnViewMs,
        studioQueue.storedMs,
        studioQueue.inMemoryMs,
        studioQueue.staticFilesMs,
        studioQueue.storedRatio,
      ].every(isPositive),
    ).toBe(true);
  }, 480_000);
});
