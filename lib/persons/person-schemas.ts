import * as v from 'valibot';
import { ACCESS_CODE_LENGTH } from '#lib/persons/rules/access-codes';
import { MAX_PERSONS_PER_IMPORT, TEXT_LIMITS } from '#lib/platform/field-limits';
import { nullableString, requestId } from '#lib/platform/schema-parts';

/** The documented bodies of the import and of the persons list. */
export const ImportRequest = v.object({
  persons: v.pipe(
    v.array(
      v.object({
        name: v.pipe(v.string(), v.maxLength(TEXT_LIMITS.name)),
        email: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.email)))),
        employeeId: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(TEXT_LIMITS.employeeId)))),
        shootingDayId: v.optional(v.nullable(v.string())),
      }),
    ),
    v.minLength(1),
    v.maxLength(MAX_PERSONS_PER_IMPORT),
  ),
});

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
  customFields: v.record(v.string(), v.union([v.string(), v.number()])),
  source: v.picklist(['import', 'checkin']),
  createdAt: v.string(),
  hasSelfie: v.boolean(),
  photoCount: v.number(),
});

export const PersonsPage = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  persons: v.array(Person),
  nextCursor: nullableString,
  requestId,
});
