import * as v from 'valibot';
import { DomainError } from '#lib/platform/domain-error';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { MAX_PERSONS_PER_IMPORT, TEXT_LIMITS } from '#lib/platform/field-limits';
import { NO_CONSENTS, type PersonDraft, newPersonId } from '#lib/persons/rules/person-model';


/**
 * Why an import row was skipped. Stable, machine-readable, documented in the README; the
 * first failing field decides (name, then email, then employeeId).
 */
export type SkipReason =
  | 'row_not_object'
  | 'name_required'
  | 'name_not_string'
  | 'name_too_long'
  | 'email_not_string'
  | 'email_too_long'
  | 'email_invalid'
  | 'employee_id_not_string'
  | 'employee_id_too_long'
  | 'not_written';

/** Absent, null and (after trimming) empty are all "not given". */
const optionalText = (notString: SkipReason, tooLong: SkipReason, max: number) =>
  v.pipe(
    v.optional(v.nullable(v.string(notString))),
    v.transform((value) => value?.trim() || null),
    v.check((value) => value === null || value.length <= max, tooLong),
  );

const ImportRowSchema = v.object(
  {
    // The default makes a missing name go through the same checks as an empty one.
    name: v.optional(
      v.pipe(
        v.nullable(v.string('name_not_string')),
        v.transform((value) => value?.trim() ?? ''),
        v.minLength(1, 'name_required'),
        v.maxLength(TEXT_LIMITS.name, 'name_too_long'),
      ),
      '',
    ),
    email: v.pipe(
      optionalText('email_not_string', 'email_too_long', TEXT_LIMITS.email),
      v.check((value) => value === null || isPlausibleEmail(value), 'email_invalid'),
    ),
    employeeId: optionalText('employee_id_not_string', 'employee_id_too_long', TEXT_LIMITS.employeeId),
    // The spec ignores an invalid shooting day ID silently; a value that is not a string is one.
    shootingDayId: v.optional(v.unknown()),
  },
  'row_not_object',
);

export interface ImportRow {
  name: string;
  email: string | null;
  employeeId: string | null;
  shootingDayId: string | null;
}

export type RowVerdict = { ok: true; row: ImportRow } | { ok: false; reason: SkipReason };

/** The `persons` array of an import request: persons_required or too_many_persons otherwise. */
export function importRows(body: Record<string, unknown>): unknown[] {
  const persons = body.persons;
  if (!Array.isArray(persons) || persons.length === 0) throw new DomainError('persons_required');
  if (persons.length > MAX_PERSONS_PER_IMPORT) {
    throw new DomainError('too_many_persons', `At most ${MAX_PERSONS_PER_IMPORT} persons per request; got ${persons.length}.`);
  }
  return persons;
}

/** Validates one row; a shooting day ID the gallery does not have becomes null. */
export function validateImportRow(input: unknown, shootingDayIds: ReadonlySet<string>): RowVerdict {
  if (Array.isArray(input)) return { ok: false, reason: 'row_not_object' }; // valibot's object() takes arrays
  const result = v.safeParse(ImportRowSchema, input, { abortEarly: true });
  if (!result.success) return { ok: false, reason: result.issues[0].message as SkipReason };
  const { name, email, employeeId, shootingDayId } = result.output;
  return {
    ok: true,
    row: {
      name: name ?? '',
      email: email ?? null,
      employeeId: employeeId ?? null,
      shootingDayId: typeof shootingDayId === 'string' && shootingDayIds.has(shootingDayId) ? shootingDayId : null,
    },
  };
}

/** The person an import row becomes (everything but the access code, which storage assigns). */
export function importedPersonDraft(row: ImportRow, createdAt: string): PersonDraft {
  return {
    personId: newPersonId(),
    ...row,
    packageId: null,
    orderNotes: null,
    phone: null,
    department: null,
    notes: null,
    consents: NO_CONSENTS,
    customFields: {},
    source: 'import',
    createdAt,
    hasSelfie: false,
    photoCount: 0,
  };
}
