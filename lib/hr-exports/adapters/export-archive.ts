import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import archiver from 'archiver';
import { Upload } from '@aws-sdk/lib-storage';
import { MEDIA_SERVER_SIDE_ENCRYPTION, mediaBucket, mediaS3 } from '#lib/platform/media-bucket';

/**
 * An export's ZIP, written as it is made: archiver stores each entry (JPEGs do not compress)
 * and lib-storage's Upload sends the archive to the media bucket in 5 MiB parts, two at a time.
 * An entry is added only once the one before has gone into the archive and the archive's
 * unread output is below ARCHIVE_BACKLOG_BYTES, so memory holds a few parts and one portrait
 * whatever the number of persons; the whole ZIP is never in memory.
 */

const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const ARCHIVE_BACKLOG_BYTES = 2 * 1024 * 1024;

export interface ExportArchive {
  /** Adds one entry; resolves once the archive can take the next. */
  add(name: string, content: Buffer | Readable, modifiedAt: Date): Promise<void>;
  /** Ends the archive and resolves once the object is complete in the bucket. */
  finish(): Promise<void>;
  /** Gives up: the upload is aborted, no object is left. */
  abort(): Promise<void>;
}

export function startExportArchive(objectKey: string, downloadName: string): ExportArchive {
  const archive = archiver('zip', { store: true });
  // archiver's stream is readable-stream's, which lib-storage does not take for a body: Node's own stream in between.
  const body = new PassThrough();
  archive.pipe(body);
  const upload = new Upload({
    client: mediaS3(),
    queueSize: PARTS_IN_FLIGHT,
    partSize: PART_BYTES,
    leavePartsOnError: false,
    params: {
      Bucket: mediaBucket(),
      Key: objectKey,
      Body: body,
      ContentType: 'application/zip',
      ContentDisposition: `attachment; filename="${downloadName}"`,
      ServerSideEncryption: MEDIA_SERVER_SIDE_ENCRYPTION,
    },
  });
  let failure: Error | undefined;
  archive.on('error', (error: Error) => {
    failure ??= error;
  });
  archive.on('warning', (error: Error) => {
    failure ??= error;
  });
  const uploaded = upload.done().catch((error: unknown) => {
    failure ??= error as Error;
    throw error;
  });
  // Read where it is awaited (finish, abort); this keeps an early failure from going unhandled meanwhile.
  uploaded.catch(() => undefined);

  const throwFailure = () => {
    if (failure) throw failure;
  };
  const backlogCleared = async () => {
    while (!failure && archive.readableLength + body.readableLength > ARCHIVE_BACKLOG_BYTES)
      await new Promise((resolve) => setTimeout(resolve, 5));
  };

  return {
    async add(name, content, modifiedAt) {
      if (failure) throw failure;
      const entered = once(archive, 'entry');
      archive.append(content, { name, date: modifiedAt });
      await entered;
      await backlogCleared();
      // A function, not `failure` itself: the compiler would keep it narrowed to undefined across the awaits.
      throwFailure();
    },
    async finish() {
      if (failure) throw failure;
      await archive.finalize();
      await uploaded;
    },
    async abort() {
      archive.abort();
      body.destroy();
      await upload.abort().catch(() => undefined);
      await uploaded.catch(() => undefined);
    },
  };
}
