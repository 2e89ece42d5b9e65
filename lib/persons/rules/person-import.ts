import * as v from 'valibot';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { PERSON_TEXT_LIMITS } from '#lib/persons/rules/person-limits';
import { isBlank, jsonObject, memberOf, optionalText, requiredText } from '#lib/platform/schema-parts';
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

export interface ImportRow {
  name: string;
  email: string | null;
  employeeId: string | null;
  shootingDayId: string | null;
}

export type RowVerdict = { ok: true; row: ImportRow } | { ok: false; reason: SkipReason };

/** An import row's email once trimmed: absent (null) or a plausible address. */
export function isAbsentOrPlausibleEmail(email: string | null): boolean {
  return email === null || isPlausibleEmail(email);
}

/** The skip reason of a row's first issue (its members are parsed in the order name, email, employeeId). */
function skipReasonOf(issue: v.BaseIssue<unknown> | undefined): SkipReason {
  const member = issue && memberOf(issue);
  if (!issue || member === undefined) return 'row_not_object';
  // A name that is absent or null is missing, like a blank one, whatever valibot calls it.
  if (member === 'name' && isBlank(issue.input)) return 'name_required';
  return issue.message as SkipReason;
}

/**
 * One row of an import request, as ImportRequest (person-schemas.ts) documents and parses it:
 * its verdict, never a refusal of the request. A row that fails is skipped with the reason of
 * its first failing member. Its shooting day is looked up in the gallery later (withKnownDay).
 */
export const ImportRowSchema = v.fallback(
  v.pipe(
    jsonObject('row_not_object'),
    v.object({
      name: requiredText(PERSON_TEXT_LIMITS.name, { notString: 'name_not_string', tooLong: 'name_too_long' }),
      email: v.pipe(
        optionalText(PERSON_TEXT_LIMITS.email, { notString: 'email_not_string', tooLong: 'email_too_long' }),
        v.check(isAbsentOrPlausibleEmail, 'email_invalid'),
      ),
      employeeId: optionalText(PERSON_TEXT_LIMITS.employeeId, {
        notString: 'employee_id_not_string',
        tooLong: 'employee_id_too_long',
      }),
      // The spec ignores an invalid shooting day ID silently; a value that is not a string is one.
      shootingDayId: v.optional(v.fallback(v.nullable(v.string()), null)),
    }),
    v.description(
      'A person to import. A row that does not fit (not an object; name absent, blank, not a string or too long; email or employeeId not a string, too long or, for email, implausible) ' +
        'does not refuse the request: it is skipped, counted in skipped and listed in skippedDetails with its index and reason (name_required, name_not_string, ...). ' +
        'A shootingDayId the gallery does not have, or that is not a string, is stored as null.',
    ),
    v.transform((row): RowVerdict => ({
      ok: true,
      row: {
        name: row.name,
        email: row.email ?? null,
        employeeId: row.employeeId ?? null,
        shootingDayId: row.shootingDayId ?? null,
      },
    })),
  ),
  (dataset): RowVerdict => ({ ok: false, reason: skipReasonOf(dataset?.issues?.[0]) }),
);

/** A row's verdict with its shooting day kept only if the gallery has it (else null, as the spec says). */
export function withKnownDay(verdict: RowVerdict, shootingDayIds: ReadonlySet<string>): RowVerdict {
  if (!verdict.ok) return verdict;
  const { shootingDayId } = verdict.row;
  return {
    ok: true,
    row: {
      ...verdict.row,
      shootingDayId: shootingDayId !== null && shootingDayIds.has(shootingDayId) ? shootingDayId : null,
    },
  };
}

/** Validates one row as the import does (for the import CLI, which checks rows before it sends them). */
export function validateImportRow(input: unknown, shootingDayIds: ReadonlySet<string>): RowVerdict {
  return withKnownDay(v.parse(ImportRowSchema, input), shootingDayIds);
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
