import { ConflictError, NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { findGallery } from '../cli-kit/lookups';
import { formatFields } from '../cli-kit/output';
import { type OptionValues, optionalText, optionalWholeNumber, requiredText } from '../cli-kit/options';
import type { CommandHandlers, CommandResult } from './command-types';
import { DomainError } from '#lib/platform/domain-error';
import { createHrExport } from '#lib/hr-exports/create-hr-export';
import { readHrExport } from '#lib/hr-exports/get-hr-export';
import { buildHrExport } from '#lib/hr-exports/build-hr-export';
import { type HrExportMessage, useHrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';

type ExportView = Awaited<ReturnType<typeof readHrExport>>;

function exportResult(view: ExportView): CommandResult {
  const report = view.report;
  return {
    data: view,
    lines: formatFields([
      ['export', view.exportId],
      ['gallery', view.galleryToken],
      ['status', view.status],
      ['shooting day', view.shootingDayId ?? 'all'],
      ['size', `${view.size} px`],
      ['exported', report ? String(report.exported) : undefined],
      [
        'left out',
        report ? `${report.skipped.noConsent} without consent, ${report.skipped.noPhoto} without a photo` : undefined,
      ],
      [
        'renamed',
        report && report.renamed.length > 0
          ? report.renamed.map((entry) => `${entry.wanted} → ${entry.fileName}`).join(', ')
          : undefined,
      ],
      ['crops', report ? `${report.cropsComputed} made, ${report.cropsReused} reused` : undefined],
      ['reason', view.reason],
      ['download', view.downloadUrl],
      ['download until', view.downloadUrlExpiresAt],
    ]),
  };
}

/** The use cases' refusals in the CLI's words and exit codes. */
async function refusalsAsCliErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    if (error.reason === 'hr_export_consent_not_asked') {
      throw new ConflictError(
        'The gallery does not ask for the HR export consent, so nobody agreed to it: enable it (gallery update --granular-consents …,hrExport) first',
      );
    }
    if (error.reason === 'hr_export_not_found') throw new NotFoundError('The gallery has no HR export with this ID');
    if (error.reason === 'unknown_shooting_day')
      throw new UsageError('--day: the gallery has no shooting day with this ID');
    if (error.reason === 'invalid_field') throw new UsageError(`--${error.subject.field ?? 'size'}: ${error.message}`);
    throw error;
  }
}

/**
 * `export hr|show`. `hr` creates an export with the endpoint's use case (createHrExport): with
 * HR_EXPORT_QUEUE_URL set (the deployed queue) it is queued and shown as queued; without it (a
 * local table) the command builds it itself, as the queue's worker would, and shows it ready.
 */
export const exportCommands: CommandHandlers = {
  hr: (values) =>
    refusalsAsCliErrors(async () => {
      const { tenant, configuration } = await findGallery(values);
      const size = optionalWholeNumber(values, 'size', 1);
      const shootingDayId = optionalText(values, 'day', 100);
      const queued: HrExportMessage[] = [];
      const buildHere = !process.env.HR_EXPORT_QUEUE_URL;
      const replaced = buildHere ? useHrExportQueue({ send: async (message) => void queued.push(message) }) : undefined;
      try {
        const created = await createHrExport(tenant, configuration.gallery.token, {
          ...(size !== undefined ? { size } : {}),
          ...(shootingDayId ? { shootingDayId } : {}),
        });
        for (const message of queued) await buildHrExport(message, { isLast: true });
        return exportResult(await readHrExport(tenant, configuration.gallery.token, created.exportId));
      } finally {
        if (buildHere) useHrExportQueue(replaced);
      }
    }),
  show: (values: OptionValues) =>
    refusalsAsCliErrors(async () => {
      const { tenant, configuration } = await findGallery(values);
      return exportResult(await readHrExport(tenant, configuration.gallery.token, requiredText(values, 'id', 40)));
    }),
};
