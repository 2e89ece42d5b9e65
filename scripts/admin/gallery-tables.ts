/** Tables of a gallery's configuration, shared by `gallery show` and the list commands, and the position a new entry takes. */
import { formatPrice, formatTable, yesNo } from '../cli-kit/output';
import type { FormField, GalleryPackage, ShootingDay } from '#lib/galleries/rules/gallery-model';
import { spotsRemaining } from '#lib/galleries/rules/gallery-views';

/** Shooting days with capacity, booked persons and spots left. */
export function dayTable(days: readonly ShootingDay[]): string[] {
  return formatTable(
    ['DAY ID', 'DATE', 'LABEL', 'TIME', 'CAPACITY', 'BOOKED', 'SPOTS LEFT'],
    days.map((day) => [
      day.id,
      day.date,
      day.label,
      `${day.startTime}-${day.endTime}`,
      day.maxPersons === undefined ? 'unlimited' : String(day.maxPersons),
      String(day.booked),
      String(spotsRemaining(day) ?? '-'),
    ]),
  );
}

/** Packages with their price in major units (29.00 EUR) or "free". */
export function packageTable(packages: readonly GalleryPackage[]): string[] {
  return formatTable(
    ['PACKAGE ID', 'POSITION', 'NAME', 'PRICE', 'DESCRIPTION'],
    packages.map((pkg) => [
      pkg.id,
      String(pkg.position),
      pkg.name,
      pkg.price === 0 ? 'free' : formatPrice(pkg.price, pkg.currency),
      pkg.description,
    ]),
  );
}

/** Form fields in their configured order, disabled ones included. */
export function sortFormFields(fields: readonly FormField[]): FormField[] {
  return [...fields].sort((a, b) => a.position - b.position || a.key.localeCompare(b.key));
}

/** Form fields with their flags and select options as value=Label. */
export function fieldTable(fields: readonly FormField[]): string[] {
  return formatTable(
    ['KEY', 'POSITION', 'LABEL', 'TYPE', 'REQUIRED', 'ENABLED', 'OPTIONS'],
    fields.map((field) => [
      field.key,
      String(field.position),
      field.label,
      field.type,
      yesNo(field.required),
      yesNo(field.enabled),
      (field.options ?? []).map((option) => `${option.value}=${option.label}`).join(', '),
    ]),
  );
}

/** The position after the highest one in use, so a new entry goes last. */
export function nextPosition(items: ReadonlyArray<{ position: number }>): number {
  return Math.max(0, ...items.map((item) => item.position)) + 1;
}
