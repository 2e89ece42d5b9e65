import type { FormField, GalleryPackage, ShootingDay } from '#lib/galleries/rules/gallery-model';
import { requiresPayment } from '#lib/galleries/rules/gallery-model';

/** Shooting days in calendar order, then by start time. */
export function sortShootingDays(days: readonly ShootingDay[]): ShootingDay[] {
  return [...days].sort((a, b) => a.date.localeCompare(b.date) || a.startTime.localeCompare(b.startTime));
}

export function spotsRemaining(day: ShootingDay): number | undefined {
  return day.maxPersons === undefined ? undefined : Math.max(0, day.maxPersons - day.booked);
}

/** A shooting day as public check-in info shows it: capacity fields only where capacity is configured. */
export function publicShootingDay(day: ShootingDay) {
  return {
    id: day.id,
    date: day.date,
    label: day.label,
    startTime: day.startTime,
    endTime: day.endTime,
    ...(day.maxPersons === undefined ? {} : { maxPersons: day.maxPersons, spotsRemaining: spotsRemaining(day) }),
  };
}

/** A shooting day as the server-side days endpoint shows it: with the booked count. */
export function integrationShootingDay(day: ShootingDay) {
  return { ...publicShootingDay(day), booked: day.booked };
}

export function publicPackage(pkg: GalleryPackage) {
  return {
    id: pkg.id,
    name: pkg.name,
    description: pkg.description,
    price: pkg.price,
    currency: pkg.currency,
    requiresPayment: requiresPayment(pkg),
  };
}

export function sortPackages(packages: readonly GalleryPackage[]): GalleryPackage[] {
  return [...packages].sort((a, b) => a.position - b.position || a.name.localeCompare(b.name));
}

/** Enabled fields in their configured order; only select fields carry `options`. */
export function enabledFormFields(fields: readonly FormField[]) {
  return [...fields]
    .filter((field) => field.enabled)
    .sort((a, b) => a.position - b.position || a.key.localeCompare(b.key))
    .map((field) => ({
      key: field.key,
      label: field.label,
      type: field.type,
      required: field.required,
      ...(field.type === 'select' ? { options: field.options ?? [] } : {}),
    }));
}
