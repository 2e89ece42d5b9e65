import { statSync } from 'node:fs';
import { EXIT_CODE, NotFoundError, UsageError, describeFailure, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import type { CliEnvironment } from '../cli-kit/local-servers';
import { type OptionValues, flag, galleryToken, optionalText, optionalWholeNumber, requiredText } from '../cli-kit/options';
import { type CliIo, printResult } from '../cli-kit/output';
import { requireEnvironment, useLocalTable } from '../cli-kit/table-environment';
import type { SkippedFile } from './shoot-folder';
import { formatMegabytes, progressBar, progressLines } from './upload-progress';
import type { UploadReport } from './upload-shoot';

/** Where the command writes; `progress` is the terminal's standard error when there is one. */
export interface PhotosIo extends CliIo {
  progress?: NodeJS.WritableStream;
}

export const PHOTOS_USAGE = [
  'Usage: npm run photos -- upload DIR --tenant SLUG|TENANT_ID --gallery TOKEN [--parallel N] [--part-size MIB] [--dry-run] [--json] [--data DIR]',
  '',
  "Uploads every JPEG below DIR to the gallery's inbox (photos/<tenantId>/<token>/inbox/<path>), with capture",
  'time and camera from EXIF as object metadata; files the inbox has with the same size are not sent again.',
  '  --parallel N      files uploaded at the same time (default 4)',
  '  --part-size MIB   files larger than this go up in parts of this size, in MiB (default 8, at least 5)',
  '  --dry-run         list what would be uploaded, upload nothing',
  '  --data DIR        the local server started with npm start -- --data DIR',
  'Environment: TABLE_NAME and MEDIA_BUCKET (else the running npm start), S3_ENDPOINT for a local S3 server. See docs/photos.md.',
];

const OPTIONS = {
  tenant: { type: 'string' },
  gallery: { type: 'string' },
  parallel: { type: 'string' },
  'part-size': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  data: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const TENANT_ID = /^ten_[0-9a-z]{26}$/;
const MEBIBYTE = 1024 * 1024;
const SKIP_REASONS: Record<SkippedFile['reason'], string> = {
  not_jpeg: 'not a JPEG',
  invalid_name: 'no valid inbox name',
  name_clash: 'same inbox name as another file',
};
/** Skipped files named in the summary; the rest are counted. */
const SKIPPED_NAMED = 10;

/**
 * Runs `npm run photos -- <argv>` and returns its exit code; failures are one line on `io.err`.
 * Without TABLE_NAME in `environment.env`, the table and bucket of the running `npm start` are
 * filled in there; the CLI passes process.env, which the table and bucket clients read.
 */
export async function runPhotos(
  argv: readonly string[],
  io: PhotosIo,
  environment: CliEnvironment = { env: process.env, workingDirectory: process.cwd() },
): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || ['help', '--help', '-h'].includes(command)) {
      PHOTOS_USAGE.forEach((line) => io.out(line));
      return command === undefined ? EXIT_CODE.usage : EXIT_CODE.ok;
    }
    if (command !== 'upload') throw new UsageError(`Unknown command "${command}": use upload, or help`);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, { command: 'upload', help: 'npm run photos -- help', allowPositionals: true });
    if (values.help === true) {
      io.out(PHOTOS_USAGE[0]!);
      return EXIT_CODE.ok;
    }
    return await upload(values, positionals, io, environment);
  } catch (error) {
    return reportFailure(error, io, (failure) => describeFailure(failure, environment.env));
  }
}

async function upload(values: OptionValues, positionals: string[], io: PhotosIo, environment: CliEnvironment): Promise<number> {
  if (positionals.length !== 1) throw new UsageError('upload needs exactly one folder: npm run photos -- upload DIR --tenant SLUG --gallery TOKEN');
  const folder = positionals[0]!;
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${folder} is not a folder`);
  const presentedTenant = requiredText(values, 'tenant');
  const token = galleryToken(values);
  const parallel = optionalWholeNumber(values, 'parallel', 1) ?? 4;
  const partSizeBytes = (optionalWholeNumber(values, 'part-size', 5) ?? 8) * MEBIBYTE;
  const note = useLocalTable(environment, optionalText(values, 'data'));
  if (note) io.err(note);
  requireEnvironment(environment.env, ['TABLE_NAME', 'MEDIA_BUCKET']);
  // The table client and the bucket adapter read their environment on import.
  const { getGalleryConfiguration } = await import('#lib/galleries/store/galleries');
  const { findTenant } = await import('../cli-kit/lookups');
  const { uploadShoot } = await import('./upload-shoot');
  const tenantId = TENANT_ID.test(presentedTenant) ? presentedTenant : (await findTenant(values)).tenantId;
  if (!(await getGalleryConfiguration(tenantId, token))) throw new NotFoundError(`Tenant "${presentedTenant}" has no gallery with token "${token}"`);
  const report = await uploadShoot({
    folder,
    tenantId,
    token,
    parallel,
    partSizeBytes,
    dryRun: flag(values, 'dry-run'),
    progress: io.progress ? progressBar(io.progress) : progressLines((line) => io.err(line)),
  });
  printResult(io, { data: report, lines: summaryLines(report, flag(values, 'dry-run')) }, values.json === true);
  return report.failed.length === 0 ? EXIT_CODE.ok : EXIT_CODE.failed;
}

function summaryLines(report: UploadReport, dryRun: boolean): string[] {
  const bytes = report.uploaded.reduce((sum, file) => sum + file.size, 0);
  const lines = dryRun
    ? [`Would upload ${report.pending.length} file(s); ${report.unchanged.length} already in the inbox`, ...report.pending.map((path) => `  ${path}`)]
    : [`Uploaded ${report.uploaded.length} file(s), ${formatMegabytes(bytes)}; ${report.unchanged.length} already in the inbox`];
  if (report.skipped.length > 0) {
    const named = report.skipped.slice(0, SKIPPED_NAMED).map((file) => `${file.relativePath} (${SKIP_REASONS[file.reason]})`);
    const more = report.skipped.length - named.length;
    lines.push(`Skipped ${report.skipped.length} file(s): ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  for (const failure of report.failed) lines.push(`Failed ${failure.inboxPath}: ${failure.error}`);
  if (report.failed.length > 0) lines.push(`${report.failed.length} file(s) failed; run the same command again to retry them`);
  return lines;
}
