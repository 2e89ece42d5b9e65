import { statSync } from 'node:fs';
import JSZip from 'jszip';
import { mebibytes } from '#lib/platform/byte-sizes';
import { UsageError } from '../cli-kit/cli-errors';

/**
 * Limits on the file `npm run import` reads, so that no file exhausts the operator's memory:
 * an HR export of 100,000 persons is a few MiB as CSV, and its worksheet's XML a few tens of MiB.
 */
export const MAX_IMPORT_FILE_BYTES = 20 * 1024 * 1024;

/** What an .xlsx (a zip archive) may expand to, all its entries together: a zip bomb is refused before exceljs reads it. */
export const MAX_WORKBOOK_EXPANDED_BYTES = 50 * 1024 * 1024;

/** The file's size, before it is read: a usage error over MAX_IMPORT_FILE_BYTES, or when there is no such file. */
export function checkImportFileSize(file: string): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new UsageError(`Cannot read ${file}`);
  }
  if (size > MAX_IMPORT_FILE_BYTES)
    throw new UsageError(
      `${file} is larger than ${mebibytes(MAX_IMPORT_FILE_BYTES)}, the most an import reads: split it`,
    );
}

/**
 * Inflates every entry of the archive as a stream, counting, and stops at
 * MAX_WORKBOOK_EXPANDED_BYTES: what the entries really expand to, whatever sizes the zip's
 * directory states. jszip is the reader exceljs itself uses. Throws what jszip throws for a
 * file that is no zip archive.
 */
export async function checkWorkbookExpandedSize(bytes: Uint8Array): Promise<void> {
  const archive = await JSZip.loadAsync(bytes);
  let expanded = 0;
  for (const entry of Object.values(archive.files)) {
    if (entry.dir) continue;
    // jszip's stream (readable-stream 2) is not async iterable; a paused stream inflates no further.
    await new Promise<void>((resolve, reject) => {
      const stream = entry.nodeStream();
      stream.on('data', (chunk: Buffer) => {
        expanded += chunk.length;
        if (expanded <= MAX_WORKBOOK_EXPANDED_BYTES) return;
        stream.pause();
        stream.removeAllListeners('data');
        reject(
          new UsageError(
            `The workbook expands to more than ${mebibytes(MAX_WORKBOOK_EXPANDED_BYTES)}, the most an import reads: save the sheet alone, or as CSV`,
          ),
        );
      });
      stream.on('end', resolve);
      stream.on('error', reject);
    });
  }
}
