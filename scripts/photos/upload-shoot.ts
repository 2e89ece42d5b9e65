import { open } from 'node:fs/promises';
import type { CompleteUploadsRequest, GroupShootClient, UploadPlan } from '#lib/client/groupshoot-client';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import { MAX_FILES_PER_UPLOAD_REQUEST } from '#lib/photos/common/rules/photo-limits';
import { readCaptureMetadata } from './capture-metadata';
import { type ShootFile, type SkippedFile, listShootFiles } from './shoot-folder';

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
  token: string;
  /** The API, with the studio's slug and API key: the only credentials the upload needs. */
  api: GroupShootClient;
  /** Files uploaded at the same time. */
  parallel: number;
  /** Files larger than this go up in parts of this size (S3's minimum part is 5 MiB). */
  partSizeBytes: number;
  dryRun: boolean;
  progress: UploadProgress;
  /** Sends the bytes to the presigned URLs (tests count the requests). */
  fetch?: typeof fetch;
}

export interface UploadedFile {
  inboxPath: string;
  size: number;
  /** A single PUT, or a multipart upload. */
  kind: 'single' | 'multipart';
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
/** Attempts of one PUT to a presigned URL: a dropped connection or a 5xx is retried. */
const PUT_ATTEMPTS = 3;
/**
 * URLs are asked for one batch at a time, just before its files are sent, so they do not expire
 * (UPLOAD_URL_TTL_SECONDS, an hour) on a slow line: 2 GB take 45 minutes at 6 Mbit/s.
 */
const BATCH_BYTES = 2 * 1000 * 1000 * 1000;

type PlannedUpload = UploadPlan['uploads'][number];
type Completion = CompleteUploadsRequest['files'][number];

/**
 * Uploads the JPEGs of a shoot folder to the gallery's inbox through the API (presigned URLs),
 * skipping those the inbox holds already with the same size, so an interrupted run is resumed
 * by running it again.
 */
export async function uploadShoot(options: UploadShootOptions): Promise<UploadReport> {
  const { files, skipped } = await listShootFiles(options.folder);
  const stored = new Map<string, number>();
  for await (const file of options.api.allInboxFiles(options.token)) stored.set(file.path, file.size);
  const missing = files.filter((file) => stored.get(file.inboxPath) !== file.size);
  const report: UploadReport = {
    uploaded: [],
    unchanged: files.filter((file) => stored.get(file.inboxPath) === file.size).map((file) => file.inboxPath),
    pending: options.dryRun ? missing.map((file) => file.inboxPath) : [],
    failed: [],
    skipped,
  };
  if (options.dryRun || missing.length === 0) return report;
  options.progress.start(
    missing.length,
    missing.reduce((sum, file) => sum + file.size, 0),
  );
  try {
    for (const batch of batchesOf(missing)) await uploadBatch(batch, options, report);
  } finally {
    options.progress.stop();
  }
  report.uploaded.sort((a, b) => (a.inboxPath < b.inboxPath ? -1 : 1));
  report.failed.sort((a, b) => (a.inboxPath < b.inboxPath ? -1 : 1));
  return report;
}

/** The files in batches of at most MAX_FILES_PER_UPLOAD_REQUEST files and about BATCH_BYTES. */
function batchesOf(files: ShootFile[]): ShootFile[][] {
  const batches: ShootFile[][] = [];
  let bytes = 0;
  for (const file of files) {
    const last = batches.at(-1);
    if (!last || last.length === MAX_FILES_PER_UPLOAD_REQUEST || bytes + file.size > BATCH_BYTES) {
      batches.push([file]);
      bytes = file.size;
    } else {
      last.push(file);
      bytes += file.size;
    }
  }
  return batches;
}

/**
 * One batch: its URLs asked for in one request, its files sent `parallel` at a time, then its
 * multipart uploads completed (or, where a part failed, aborted) in one request.
 */
async function uploadBatch(batch: ShootFile[], options: UploadShootOptions, report: UploadReport): Promise<void> {
  const facts = await mapWithConcurrency(batch, options.parallel, async (file) => {
    const { capturedAt, camera } = await readCaptureMetadata(file.localPath);
    return { capturedAt, camera: camera === null ? null : asHeaderValue(camera) };
  });
  const plan = await options.api.createUploads(options.token, {
    partSize: options.partSizeBytes,
    files: batch.map((file, index) => ({ path: file.inboxPath, size: file.size, ...facts[index] })),
  });
  const completions: Completion[] = [];
  const multipartFiles = new Map<string, { file: ShootFile; uploaded: UploadedFile }>();
  const fail = (file: ShootFile, error: Error) => {
    report.failed.push({ inboxPath: file.inboxPath, error: `${error.name}: ${error.message.split('\n')[0]}` });
    options.progress.fileDone(file, error);
  };
  await mapWithConcurrency(batch, options.parallel, async (file, index) => {
    const upload = plan.uploads[index]!;
    const uploaded: UploadedFile = { inboxPath: file.inboxPath, size: file.size, kind: upload.kind, ...facts[index]! };
    try {
      if (upload.kind === 'single') {
        await put(options, upload.url, await readSlice(file.localPath, 0, file.size), upload.headers);
        options.progress.advance(file.size);
        report.uploaded.push(uploaded);
        options.progress.fileDone(file);
      } else {
        completions.push({
          path: file.inboxPath,
          uploadId: upload.uploadId,
          action: 'complete',
          parts: await sendParts(file, upload, options),
        });
        multipartFiles.set(file.inboxPath, { file, uploaded });
      }
    } catch (error) {
      if (upload.kind === 'multipart')
        completions.push({ path: file.inboxPath, uploadId: upload.uploadId, action: 'abort' });
      fail(file, error as Error);
    }
  });
  if (completions.length === 0) return;
  const result = await options.api.completeUploads(options.token, completions);
  for (const path of result.completed) {
    const { file, uploaded } = multipartFiles.get(path)!;
    report.uploaded.push(uploaded);
    options.progress.fileDone(file);
  }
  for (const failure of result.failed) {
    const completed = multipartFiles.get(failure.path);
    if (completed) fail(completed.file, Object.assign(new Error(failure.message), { name: failure.reason }));
  }
}

/** Sends a file's parts, PARTS_IN_FLIGHT at a time; answers each part's number and ETag. */
async function sendParts(
  file: ShootFile,
  upload: Extract<PlannedUpload, { kind: 'multipart' }>,
  options: UploadShootOptions,
) {
  const offsets = upload.parts.map((_, index) =>
    upload.parts.slice(0, index).reduce((sum, part) => sum + part.size, 0),
  );
  return mapWithConcurrency(upload.parts, PARTS_IN_FLIGHT, async (part, index) => {
    const etag = await put(options, part.url, await readSlice(file.localPath, offsets[index]!, part.size));
    if (!etag) throw new Error(`S3 answered part ${part.partNumber} without an ETag`);
    options.progress.advance(part.size);
    return { partNumber: part.partNumber, etag };
  });
}

/** PUTs the bytes to a presigned URL, retrying a dropped connection or a 5xx; answers the ETag. */
async function put(
  options: UploadShootOptions,
  url: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<string | null> {
  const send = options.fetch ?? fetch;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await send(url, { method: 'PUT', headers, body }).then(
      async (response) => ({ response, text: await response.text() }),
      (error: Error) => ({ error }),
    );
    if ('response' in outcome && outcome.response.ok) return outcome.response.headers.get('etag');
    const error =
      'error' in outcome
        ? outcome.error
        : new Error(
            `S3 answered ${outcome.response.status} ${/<Code>([^<]+)<\/Code>/.exec(outcome.text)?.[1] ?? ''}`.trim(),
          );
    const retryable = 'error' in outcome || outcome.response.status >= 500;
    if (!retryable || attempt >= PUT_ATTEMPTS) throw error;
  }
}

async function readSlice(path: string, start: number, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, start);
    if (bytesRead !== length) throw new Error(`${path} changed while it was uploaded`);
    return buffer;
  } finally {
    await file.close();
  }
}

/** S3 user metadata travels as HTTP headers: printable ASCII only. */
function asHeaderValue(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 256);
}
