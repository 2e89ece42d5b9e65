import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { findGallery } from '../cli-kit/lookups';
import {
  type OptionValues,
  flag,
  galleryToken,
  optionalWholeNumber,
  requiredText,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { fieldTable, nextPosition, sortFormFields } from './gallery-tables';
import { optionalSelectOptions, requiredFieldType } from './admin-options';
import { putFormField } from '#lib/galleries/store/galleries';
import { BUILT_IN_FIELD_KEYS, isValidFormFieldKey } from '#lib/galleries/rules/gallery-model';

/** Asks putFormField for a new `custom-<uuid>` key. */
const NEW_CUSTOM_KEY = 'custom';

/** `field set|list`: check-in form fields. `set` replaces the whole field. */
export const fieldCommands: CommandHandlers = {
  async set(values) {
    tenantSlug(values, 'tenant');
    galleryToken(values);
    const key = fieldKey(values);
    const label = requiredText(values, 'label');
    const type = requiredFieldType(values);
    const options = optionalSelectOptions(values);
    if (type === 'select' && options === undefined) throw new UsageError('--options is required for --type select');
    if (type !== 'select' && options !== undefined) throw new UsageError('--options is only for --type select');
    const position = optionalWholeNumber(values, 'position', 0);
    const { tenant, configuration } = await findGallery(values);
    const existing = configuration.formFields.find((field) => field.key === key);
    if (key !== NEW_CUSTOM_KEY && key.startsWith('custom-') && !existing) {
      throw new NotFoundError(
        `Gallery ${configuration.gallery.token} has no form field "${key}"; use --key custom to add a new custom field`,
      );
    }
    const field = await putFormField(tenant.tenantId, configuration.gallery.token, {
      key,
      label,
      type,
      required: flag(values, 'required'),
      enabled: !flag(values, 'disabled'),
      position: position ?? existing?.position ?? nextPosition(configuration.formFields),
      options,
    });
    return {
      data: field,
      lines: [
        `${existing ? 'Replaced' : 'Added'} form field ${field.key} of gallery ${configuration.gallery.token}`,
        ...fieldTable([field]),
      ],
    };
  },

  async list(values) {
    const { configuration } = await findGallery(values);
    const fields = sortFormFields(configuration.formFields);
    return {
      data: fields,
      lines: [`${fields.length} form field(s) of gallery ${configuration.gallery.token}`, ...fieldTable(fields)],
    };
  },
};

function fieldKey(values: OptionValues): string {
  const key = requiredText(values, 'key');
  if (key === 'name' || key === 'email') {
    throw new UsageError(`--key ${key}: name and email are always asked at check-in and are not form fields`);
  }
  if (key !== NEW_CUSTOM_KEY && !isValidFormFieldKey(key)) {
    throw new UsageError(
      `--key "${key}" is not a form field key: use ${BUILT_IN_FIELD_KEYS.join(', ')}, custom (a new field) or custom-<uuid> (an existing one)`,
    );
  }
  return key;
}
