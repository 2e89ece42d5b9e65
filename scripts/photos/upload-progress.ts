import { Presets, SingleBar } from 'cli-progress';
import type { UploadProgress } from './upload-shoot';

/** Megabytes with one decimal, as the progress and the summary show sizes. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** A progress bar over the bytes to send, with files done, on a terminal (`stream` is standard error). */
export function progressBar(stream: NodeJS.WritableStream): UploadProgress {
  const bar = new SingleBar(
    {
      stream,
      format: 'Uploading {bar} {percentage}% | {filesDone}/{files} files | {sent} of {size} | ETA {eta_formatted}',
      hideCursor: true,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  let filesDone = 0;
  let files = 0;
  let sent = 0;
  let size = 0;
  const payload = () => ({ filesDone, files, sent: formatMegabytes(sent), size: formatMegabytes(size) });
  return {
    start(fileCount, bytes) {
      files = fileCount;
      size = bytes;
      bar.start(bytes, 0, payload());
    },
    advance(bytes) {
      sent += bytes;
      bar.update(sent, payload());
    },
    fileDone() {
      filesDone += 1;
      bar.update(sent, payload());
    },
    stop() {
      bar.stop();
    },
  };
}

/** Without a terminal (CI, a log file): one line per file, no bar redrawn into the log. */
export function progressLines(write: (line: string) => void): UploadProgress {
  let filesDone = 0;
  let files = 0;
  return {
    start(fileCount, bytes) {
      files = fileCount;
      write(`Uploading ${fileCount} file(s), ${formatMegabytes(bytes)}`);
    },
    advance() {},
    fileDone(file, error) {
      filesDone += 1;
      const outcome = error ? `failed: ${error.name}: ${error.message.split('\n')[0]}` : formatMegabytes(file.size);
      write(`[${filesDone}/${files}] ${file.inboxPath} ${outcome}`);
    },
    stop() {},
  };
}
