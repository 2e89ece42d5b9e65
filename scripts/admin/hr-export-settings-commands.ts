import { formatFields } from '../cli-kit/output';
import { findGallery } from '../cli-kit/lookups';
import { galleryToken, optionalChoice, tenantSlug } from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { updateGallerySettings } from '#lib/galleries/store/galleries';
import { DEFAULT_HR_EXPORT_SETTINGS, type HrExportSettings } from '#lib/galleries/rules/gallery-model';

/** `gallery hr-export`: how the gallery's HR exports name their files (docs/hr-export.md#naming-and-clashes). */
export const hrExportSettingsCommands: CommandHandlers = {
  /** Shows the settings; with `--declared-ids on|off`, sets whether a self-declared employee ID names a file. */
  async 'hr-export'(values) {
    tenantSlug(values, 'tenant');
    const token = galleryToken(values);
    const declaredIds = optionalChoice(values, 'declared-ids', ['on', 'off'] as const);
    const { tenant, configuration } = await findGallery(values);
    const settings: HrExportSettings = {
      ...DEFAULT_HR_EXPORT_SETTINGS,
      ...configuration.gallery.hrExport,
      ...(declaredIds ? { declaredIdsNameFiles: declaredIds === 'on' } : {}),
    };
    if (declaredIds) await updateGallerySettings(tenant.tenantId, token, { hrExport: settings });
    return {
      data: settings,
      lines: [
        `HR export file names of gallery ${token}`,
        ...formatFields([
          ['employee ID from HR', 'names the file'],
          [
            'declared employee ID',
            settings.declaredIdsNameFiles
              ? 'names the file (on), unless HR gave that ID to a person of the gallery'
              : 'names no file (off): the person ID does',
          ],
        ]),
      ],
    };
  },
};
