import { statSync } from 'node:fs';
import { GroupShootClient } from '#lib/client/groupshoot-client';
import { UPLOAD_PART_BYTES } from '#lib/photos/uploads/rules/inbox';
import { EXIT_CODE, UsageError, describeFailure, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import { connectionSettings } from '../cli-kit/local-api';
import type { CliEnvironment } from '../cli-kit/local-servers';
import {
  type OptionValues,
  flag,
  galleryToken,
  optionalText,
  optionalWholeNumber,
  requiredText,
} from '../cli-kit/options';
import { type CliIo, printResult } from '../cli-kit/output';
import { requireEnvironment, useLocalTable } from '../cli-kit/table-environment';
import type { SkippedFile } from './shoot-folder';
import { formatMegabytes, progressBar, progressLines } from './upload-progress';
import { uploadPolicy } from './upload-policy';
import { type UploadReport, uploadShoot } from './upload-shoot';

/** Where the command writes; `progress` is the terminal's standard error when there is one. */
export interface PhotosIo extends CliIo {
  progress?: NodeJS.WritableStream;
}

export const PHOTOS_USAGE = [
  'Usage: npm run photos -- upload DIR --gallery TOKEN [--tenant SLUG] [--api-key KEY] [--base-url URL] [--parallel N] [--part-size MIB] [--dry-run] [--json] [--data DIR]',
  '       npm run photos -- iam-policy --tenant SLUG|TENANT_ID [--gallery TOKEN] [--bucket NAME] [--data DIR]',
  '',
  "upload: sends every JPEG below DIR to the gallery's inbox through the API (presigned URLs), with capture",
  'time and camera from EXIF as object metadata; files the inbox has with the same size are not sent again.',
  'It needs the API URL, the tenant slug and an API key, no AWS credentials.',
  '  --parallel N      files uploaded at the same time (default 4)',
  '  --part-size MIB   files larger than this go up in parts of this size, in MiB (default 8, 5 to 64)',
  '  --dry-run         list what would be uploaded, upload nothing',
  '  --data DIR        the local server started with npm start -- --data DIR',
  'Defaults for tenant, key and URL come from GROUPSHOOT_TENANT, GROUPSHOOT_API_KEY and GROUPSHOOT_API_URL, else from the running npm start.',
  '',
  "iam-policy: prints the IAM policy of an uploader that writes straight to S3: only into the gallery's inbox",
  "(photos/<tenantId>/<token>/inbox/), or without --gallery into every gallery's inbox of the tenant; never a",
  "person's folder, no reading, no table.",
  '  --gallery TOKEN   one gallery: the policy to hand a freelancer (a slug is checked to have this gallery)',
  '  --bucket NAME     the media bucket (default MEDIA_BUCKET); a slug is looked up in the table (TABLE_NAME, else npm start)',
  'See docs/photos.md.',
];

const UPLOAD_OPTIONS = {
  tenant: { type: 'string' },
  gallery: { type: 'string' },
  'api-key': { type: 'string' },
  'base-url': { type: 'string' },
  parallel: { type: 'string' },
  'part-size': { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
  data: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const POLICY_OPTIONS = {
  tenant: { type: 'string' },
  gallery: { type: 'string' },
  bucket: { type: 'string' },
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
 * upload talks to the API only (URL, tenant and key from options, `environment.env` or the
 * running `npm start`); iam-policy reads the table only to look a tenant's slug up (without
 * TABLE_NAME, the running `npm start`'s table is filled into `environment.env`).
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
    if (command === 'upload') {
      const { values, positionals } = parseCommandLine(rest, UPLOAD_OPTIONS, {
        command: 'upload',
        help: 'npm run photos -- help',
        allowPositionals: true,
      });
      if (values.help === true) return (io.out(PHOTOS_USAGE[0]!), EXIT_CODE.ok);
      return await upload(values, positionals, io, environment);
    }
    if (command === 'iam-policy') {
      const { values } = parseCommandLine(rest, POLICY_OPTIONS, {
        command: 'iam-policy',
        help: 'npm run photos -- help',
      });
      if (values.help === true) return (io.out(PHOTOS_USAGE[1]!.trim()), EXIT_CODE.ok);
      return await printPolicy(values, io, environment);
    }
    throw new UsageError(`Unknown command "${command}": use upload, iam-policy, or help`);
  } catch (error) {
    return reportFailure(error, io, (failure) => describeFailure(failure, environment.env));
  }
}

async function upload(
  values: OptionValues,
  positionals: string[],
  io: PhotosIo,
  environment: CliEnvironment,
): Promise<number> {
  if (positionals.length !== 1)
    throw new UsageError('upload needs exactly one folder: npm run photos -- upload DIR --gallery TOKEN');
  const folder = positionals[0]!;
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${folder} is not a folder`);
  const token = galleryToken(values);
  const parallel = optionalWholeNumber(values, 'parallel', 1) ?? 4;
  const partSizeMebibytes =
    optionalWholeNumber(values, 'part-size', UPLOAD_PART_BYTES.min / MEBIBYTE) ?? UPLOAD_PART_BYTES.default / MEBIBYTE;
  if (partSizeMebibytes * MEBIBYTE > UPLOAD_PART_BYTES.max)
    throw new UsageError(`--part-size must be at most ${UPLOAD_PART_BYTES.max / MEBIBYTE}`);
  const settings = {
    baseUrl: optionalText(values, 'base-url', 2000),
    tenantSlug: optionalText(values, 'tenant'),
    apiKey: optionalText(values, 'api-key', 1000),
  };
  const api = new GroupShootClient(
    await connectionSettings({ settings, dataDir: optionalText(values, 'data') }, environment, (line) => io.err(line)),
  );
  const report = await uploadShoot({
    folder,
    token,
    api,
    parallel,
    partSizeBytes: partSizeMebibytes * MEBIBYTE,
    dryRun: flag(values, 'dry-run'),
    progress: io.progress ? progressBar(io.progress) : progressLines((line) => io.err(line)),
  });
  printResult(io, { data: report, lines: summaryLines(report, flag(values, 'dry-run')) }, values.json === true);
  return report.failed.length === 0 ? EXIT_CODE.ok : EXIT_CODE.failed;
}

/** The policy for `--tenant` (and `--gallery`): a tenant ID as given; a slug looked up in the table, with its gallery. */
async function printPolicy(values: OptionValues, io: PhotosIo, environment: CliEnvironment): Promise<number> {
  const presentedTenant = requiredText(values, 'tenant');
  const token = values.gallery === undefined ? undefined : galleryToken(values);
  let tenantId = presentedTenant;
  if (!TENANT_ID.test(presentedTenant)) {
    const note = useLocalTable(environment, optionalText(values, 'data'));
    if (note) io.err(note);
    requireEnvironment(environment.env, ['TABLE_NAME']);
    // The table client reads its environment on import.
    const { findGallery, findTenant } = await import('../cli-kit/lookups');
    tenantId = (token ? (await findGallery(values)).tenant : await findTenant(values)).tenantId;
  }
  const bucket = optionalText(values, 'bucket') ?? environment.env.MEDIA_BUCKET;
  if (!bucket) throw new UsageError('The bucket is needed: give --bucket NAME (or set MEDIA_BUCKET)');
  JSON.stringify(uploadPolicy(tenantId, bucket, token), null, 2)
    .split('\n')
    .forEach((line) => io.out(line));
  return EXIT_CODE.ok;
}

function summaryLines(report: UploadReport, dryRun: boolean): string[] {
  const bytes = report.uploaded.reduce((sum, file) => sum + file.size, 0);
  const lines = dryRun
    ? [
        `Would upload ${report.pending.length} file(s); ${report.unchanged.length} already in the inbox`,
        ...report.pending.map((path) => `  ${path}`),
      ]
    : [
        `Uploaded ${report.uploaded.length} file(s), ${formatMegabytes(bytes)}; ${report.unchanged.length} already in the inbox`,
      ];
  if (report.skipped.length > 0) {
    const named = report.skipped
      .slice(0, SKIPPED_NAMED)
      .map((file) => `${file.relativePath} (${SKIP_REASONS[file.reason]})`);
    const more = report.skipped.length - named.length;
    lines.push(`Skipped ${report.skipped.length} file(s): ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  for (const failure of report.failed) lines.push(`Failed ${failure.inboxPath}: ${failure.error}`);
  if (report.failed.length > 0)
    lines.push(`${report.failed.length} file(s) failed; run the same command again to retry them`);
  return lines;
}
