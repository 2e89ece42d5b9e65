import * as v from 'valibot';
import { parseBody, requestId } from '#lib/platform/schema-parts';
import {
  DEFAULT_PORTRAIT_SIZE,
  HR_EXPORT_DOWNLOAD_URL_SECONDS,
  PORTRAIT_SIZE_LIMITS,
} from '#lib/hr-exports/rules/hr-export-model';

/** The documented bodies of the HR export routes (docs/hr-export.md). */

export const HrExportRequest = v.object({
  shootingDayId: v.optional(
    v.pipe(
      v.string('shootingDayId must be a string.'),
      v.maxLength(100, 'shootingDayId must be at most 100 characters.'),
      v.description('Only the persons of this shooting day; without it, the whole gallery.'),
    ),
  ),
  size: v.optional(
    v.pipe(
      v.number('size must be a number of pixels.'),
      v.integer('size must be a whole number of pixels.'),
      v.minValue(PORTRAIT_SIZE_LIMITS.min, `size must be at least ${PORTRAIT_SIZE_LIMITS.min}.`),
      v.maxValue(PORTRAIT_SIZE_LIMITS.max, `size must be at most ${PORTRAIT_SIZE_LIMITS.max}.`),
      v.description(`Side of the square portraits in pixels (default ${DEFAULT_PORTRAIT_SIZE}).`),
    ),
  ),
});

export function parseHrExportRequest(body: unknown): v.InferOutput<typeof HrExportRequest> {
  return parseBody(HrExportRequest, body, [{ member: 'shootingDayId' }, { member: 'size' }]);
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const HrExportReport = v.pipe(
  v.object({
    persons: v.pipe(count, v.description("Persons considered: the gallery's, or the shooting day's.")),
    exported: v.pipe(count, v.description('Portraits in the ZIP.')),
    skipped: v.pipe(
      v.object({
        noConsent: v.pipe(count, v.description('Persons without hrExportConsent: true.')),
        noPhoto: v.pipe(count, v.description('Consenting persons without a photo.')),
      }),
      v.description('Persons left out, by reason.'),
    ),
    renamed: v.pipe(
      v.array(v.object({ personId: v.string(), wanted: v.string(), fileName: v.string() })),
      v.description(
        'Portraits whose file name was taken (same employee ID, or names equal but for case or unsafe characters), or wanted by an employee ID typed at check-in that HR gave a person of the gallery (named by person ID instead), with the name they got.',
      ),
    ),
    cropsComputed: v.pipe(count, v.description('Portraits cropped for this export.')),
    cropsReused: v.pipe(
      count,
      v.description('Portraits reused from an earlier export of the same photo at the same size.'),
    ),
  }),
  v.description('What the ZIP holds and what it left out.'),
);

export const HrExportAnswer = v.object({
  ok: v.literal(true),
  requestId,
  galleryToken: v.string(),
  exportId: v.pipe(v.string(), v.startsWith('hrx_'), v.description('The export (hrx_…).')),
  status: v.pipe(
    v.picklist(['queued', 'running', 'ready', 'failed', 'erased']),
    v.description(
      'queued, then running, then ready (downloadUrl) or failed (reason); erased once erasure removed a person it held.',
    ),
  ),
  shootingDayId: v.pipe(
    v.nullable(v.string()),
    v.description('The shooting day it covers, or null for the whole gallery.'),
  ),
  size: v.pipe(v.number(), v.integer(), v.description('Side of the square portraits in pixels.')),
  createdAt: v.pipe(v.string(), v.description('ISO 8601, UTC.')),
  updatedAt: v.pipe(v.string(), v.description('ISO 8601, UTC.')),
  downloadUrl: v.optional(
    v.pipe(
      v.string(),
      v.description(
        `ready: a presigned URL of the ZIP, valid ${HR_EXPORT_DOWNLOAD_URL_SECONDS / 60} minutes from this answer (at most until the ZIP expires).`,
      ),
    ),
  ),
  downloadUrlExpiresAt: v.optional(v.pipe(v.string(), v.description('ISO 8601, UTC.'))),
  expiresAt: v.optional(v.pipe(v.string(), v.description('ready: when the ZIP is deleted (ISO 8601, UTC).'))),
  report: v.optional(HrExportReport),
  reason: v.optional(v.pipe(v.picklist(['gallery_gone', 'build_failed']), v.description('failed: why.'))),
});
