import * as v from 'valibot';
import { LANGUAGES } from '#lib/platform/languages';
import { ACCESS_CODE_LENGTH } from '#lib/persons/rules/access-codes';
import { ImportRowSchema } from '#lib/persons/rules/person-import';
import { DomainError } from '#lib/platform/domain-error';
import { MAX_PERSONS_PER_IMPORT } from '#lib/persons/rules/person-limits';
import { nullableString, parseBody, requestId } from '#lib/platform/schema-parts';

/** The documented bodies of the import and of the persons list, and the import's request. */

/**
 * The body of the import: 1 to 500 rows, each parsed into its verdict (ImportRowSchema), so a
 * row that fails is skipped, never the request. The count is checked before any row is parsed
 * (the second array schema runs only once the first one's limits hold): a body of a million
 * rows is refused for the cost of counting them.
 */
export const ImportRequest = v.object({
  persons: v.pipe(
    v.array(v.unknown()),
    v.minLength(1),
    v.maxLength(
      MAX_PERSONS_PER_IMPORT,
      (issue) => `At most ${MAX_PERSONS_PER_IMPORT} persons per request; got ${issue.received}.`,
    ),
    v.array(ImportRowSchema),
  ),
});

export type ImportInput = v.InferOutput<typeof ImportRequest>;

/** An import body, parsed: too_many_persons above the limit, persons_required for anything else that is not 1 to 500 rows. */
export function parseImportRequest(body: unknown): ImportInput {
  return parseBody(ImportRequest, body, [
    {
      member: 'persons',
      refusal: (issue) =>
        issue.type === 'max_length'
          ? new DomainError('too_many_persons', issue.message)
          : new DomainError('persons_required'),
    },
  ]);
}

export const ImportedPerson = v.object({
  personId: v.string(),
  name: v.string(),
  email: nullableString,
  employeeId: nullableString,
  shootingDayId: nullableString,
  code: v.pipe(v.string(), v.length(ACCESS_CODE_LENGTH)),
});

export const ImportResult = v.object({
  ok: v.literal(true),
  requestId,
  galleryToken: v.string(),
  imported: v.number(),
  skipped: v.number(),
  persons: v.array(ImportedPerson),
  skippedDetails: v.optional(v.array(v.object({ index: v.number(), reason: v.string() }))),
});

/** A consent's last change after check-in (GET …/persons). */
const consentChange = v.nullable(
  v.object({
    given: v.pipe(v.boolean(), v.description('Its value since: false withdrawn, true given again.')),
    changedAt: v.pipe(v.string(), v.description('When, ISO 8601.')),
    changedBy: v.pipe(v.picklist(['participant', 'studio']), v.description('Who changed it.')),
  }),
);

export const Person = v.object({
  personId: v.string(),
  name: v.string(),
  email: nullableString,
  employeeId: nullableString,
  phone: nullableString,
  department: nullableString,
  notes: nullableString,
  shootingDayId: nullableString,
  packageId: nullableString,
  orderNotes: nullableString,
  code: v.string(),
  consentGiven: v.nullable(v.boolean()),
  faceConsent: v.nullable(v.boolean()),
  notificationConsent: v.nullable(v.boolean()),
  hrExportConsent: v.nullable(v.boolean()),
  consentChanges: v.pipe(
    v.object({
      faceConsent: consentChange,
      notificationConsent: consentChange,
      hrExportConsent: consentChange,
    }),
    v.description(
      "Our extension: each consent's last change after check-in, by the participant (the page a photo link opens, an email's unsubscribe link) or the studio; null for a consent as the check-in left it. consentGiven never changes after check-in: it ends with erasure.",
    ),
  ),
  customFields: v.record(v.string(), v.union([v.string(), v.number()])),
  source: v.picklist(['import', 'checkin']),
  createdAt: v.string(),
  checkedInAt: v.pipe(
    nullableString,
    v.description(
      'When an imported person completed its own check-in (importedOnly galleries); null until then, and for persons who checked in.',
    ),
  ),
  hasSelfie: v.boolean(),
  photoCount: v.number(),
  language: v.pipe(
    v.nullable(v.picklist(LANGUAGES)),
    v.description(
      "The language the participant checked in in (the check-in page's); their emails are written in it. null: not known (imported and not checked in yet, or checked in before languages were stored).",
    ),
  ),
  declared: v.pipe(
    v.nullable(
      v.object({ name: v.optional(v.string()), email: v.optional(v.string()), employeeId: v.optional(v.string()) }),
    ),
    v.description(
      "What an imported person's own check-in declared of its identity where it differs from the import: name, email and employee ID stay HR's, and what the participant typed instead is kept here. null when it agreed, and for persons who checked in.",
    ),
  ),
});

export const PersonsPage = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  persons: v.array(Person),
  nextCursor: nullableString,
  requestId,
});
