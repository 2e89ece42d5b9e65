import { createReadStream } from 'node:fs';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { readCaptureMetadata } from './capture-metadata';
import { type ShootFile, type SkippedFile, listShootFiles } from './shoot-folder';
import { mediaBucket, s3 } from '#lib/platform/media-bucket';
import { inboxObjectKey, inboxPrefix } from '#lib/platform/media-keys';
import { mapWithConcurrency } from '#lib/platform/concurrency';

/** What the upload reports as it goes: a progress bar on a terminal, a line per file elsewhere. */
export interface UploadProgress {
  start(files: number, bytes: number): void;
  /** `bytes` more have been sent. */
  advance(bytes: number): void;
  fileDone(file: ShootFile, error?: Error): void;
  stop(): void;
}

export interface UploadShootOptions {
  folder: string;
  tenantId: string;
  token: string;
  /** Files uploaded at the same time. */
  parallel: number;
  /** Files larger than this go up in parts of this size (S3's minimum part is 5 MiB). */
  partSizeBytes: number;
  dryRun: boolean;
  progress: UploadProgress;
}

export interface UploadedFile {
  inboxPath: string;
  objectKey: string;
  size: number;
  capturedAt: string | null;
  camera: string | null;
}

export interface UploadReport {
  uploaded: UploadedFile[];
  /** Files the inbox has already, with the same size. */
  unchanged: string[];
  /** In a dry run: the files that would be uploaded. */
  pending: string[];
  failed: Array<{ inboxPath: string; error: string }>;
  skipped: SkippedFile[];
}

/** Concurrent part uploads of one file; files themselves go `parallel` at a time. */
const PARTS_IN_FLIGHT = 2;

/**
 * Uploads the JPEGs of a shoot folder to the gallery's inbox, skipping those the inbox holds
 * already with the same size, so an interrupted run is resumed by running it again.
 */
export async function uploadShoot(options: UploadShootOptions): Promise<UploadReport> {
  const { files, skipped } = await listShootFiles(options.folder);
  const stored = await listInboxSizes(inboxPrefix(options.tenantId, options.token));
  const keyOf = (file: ShootFile) => inboxObjectKey({ tenantId: options.tenantId, token: options.token, path: file.inboxPath });
  const missing = files.filter((file) => stored.get(keyOf(file)) !== file.size);
  const report: UploadReport = {
    uploaded: [],
    unchanged: files.filter((file) => stored.get(keyOf(file)) === file.size).map((file) => file.inboxPath),
    pending: options.dryRun ? missing.map((file) => file.inboxPath) : [],
    failed: [],
    skipped,
  };
  if (options.dryRun || missing.length === 0) return report;
  options.progress.start(missing.length, missing.reduce((sum, file) => sum + file.size, 0));
  try {
    await mapWithConcurrency(missing, options.parallel, async (file) => {
      try {
        report.uploaded.push(await uploadFile(file, keyOf(file), options));
        options.progress.fileDone(file);
      } catch (error) {
        report.failed.push({ inboxPath: file.inboxPath, error: `${(error as Error).name}: ${(error as Error).message.split('\n')[0]}` });
        options.progress.fileDone(file, error as Error);
      }
    });
  } finally {
    options.progress.stop();
  }
  report.uploaded.sort((a, b) => (a.inboxPath < b.inboxPath ? -1 : 1));
  return report;
}

async function uploadFile(file: ShootFile, objectKey: string, options: UploadShootOptions): Promise<UploadedFile> {
  const { capturedAt, camera } = await readCaptureMetadata(file.localPath);
  const metadata: Record<string, string> = {};
  if (capturedAt !== null) metadata['captured-at'] = capturedAt;
  if (camera !== null) metadata.camera = asHeaderValue(camera);
  const upload = new Upload({
    client: s3,
    params: { Bucket: mediaBucket, Key: objectKey, Body: createReadStream(file.localPath), ContentType: 'image/jpeg', Metadata: metadata },
    partSize: options.partSizeBytes,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  let sent = 0;
  upload.on('httpUploadProgress', ({ loaded }) => {
    if (loaded === undefined || loaded <= sent) return;
    options.progress.advance(loaded - sent);
    sent = loaded;
  });
  await upload.done();
  if (sent < file.size) options.progress.advance(file.size - sent);
  return { inboxPath: file.inboxPath, objectKey, size: file.size, capturedAt, camera };
}

/** S3 user metadata travels as HTTP headers: printable ASCII only. */
function asHeaderValue(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 256);
}

async function listInboxSizes(prefix: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: mediaBucket, Prefix: prefix, ContinuationToken: token }));
    for (const entry of page.Contents ?? []) if (entry.Key) sizes.set(entry.Key, entry.Size ?? -1);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return sizes;
}

