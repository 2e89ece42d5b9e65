import { UsageError } from '../cli-kit/cli-errors';
import { findGallery } from '../cli-kit/lookups';
import {
  galleryToken,
  optionalWholeNumber,
  requiredDate,
  requiredText,
  requiredTime,
  tenantSlug,
} from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { dayTable } from './gallery-tables';
import { addShootingDay } from '#lib/galleries/store/galleries';
import type { ShootingDay } from '#lib/galleries/rules/gallery-model';
import { sortShootingDays } from '#lib/galleries/rules/gallery-views';

/** A day as `--json` prints it: what the API's days show, without the counters its spots are counted on (internal bookkeeping). */
const dayOutput = ({ spotCounters: _counters, ...day }: ShootingDay) => day;

/** `day add|list`: shooting days of a gallery. */
export const dayCommands: CommandHandlers = {
  async add(values) {
    tenantSlug(values, 'tenant');
    galleryToken(values);
    const date = requiredDate(values, 'date');
    const label = requiredText(values, 'label');
    const startTime = requiredTime(values, 'start');
    const endTime = requiredTime(values, 'end');
    // HH:MM strings of equal width compare in time order.
    if (endTime <= startTime) throw new UsageError(`--end ${endTime} must be after --start ${startTime}`);
    const maxPersons = optionalWholeNumber(values, 'max', 1);
    const { tenant, configuration } = await findGallery(values);
    const day = await addShootingDay(tenant.tenantId, configuration.gallery.token, {
      date,
      label,
      startTime,
      endTime,
      maxPersons,
    });
    return {
      data: dayOutput(day),
      lines: [`Added shooting day ${day.id} to gallery ${configuration.gallery.token}`, ...dayTable([day])],
    };
  },

  async list(values) {
    const { configuration } = await findGallery(values);
    const days = sortShootingDays(configuration.shootingDays);
    return {
      data: days.map(dayOutput),
      lines: [`${days.length} shooting day(s) of gallery ${configuration.gallery.token}`, ...dayTable(days)],
    };
  },
};
