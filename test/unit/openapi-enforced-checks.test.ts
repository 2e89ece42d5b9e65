import fc from 'fast-check';
import * as v from 'valibot';
import { toJsonSchema } from '@valibot/to-json-schema';
import { isAccessCodeShaped } from '#lib/persons/rules/access-codes';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { isUploadablePath } from '#lib/photos/uploads/rules/inbox';
import { isCaptureTime } from '#lib/photos/common/rules/capture-time';
import { normalizeTenantSlug } from '#lib/tenants/rules/tenant-slug';
import { buildOpenApiDocument } from '../../scripts/openapi/build-openapi';
import { enforcedAction } from '../../scripts/openapi/enforced-checks';

/**
 * The patterns the document states for checks the converter cannot see (issue 31): every value
 * a pattern takes, the service's check takes too, so a tool that trusts the document is not
 * refused as malformed; and on plain ASCII text the two agree both ways.
 */
const document = buildOpenApiDocument();
const schemas = document.components.schemas;
const patternOf = (schema: { pattern?: string }) => new RegExp(schema.pattern!, 'u');

const CASES: Array<[string, RegExp, (value: string) => boolean]> = [
  [
    'submitCheckin email',
    patternOf(schemas.SubmitCheckinRequest.properties.email),
    (value) => isPlausibleEmail(value.trim()),
  ],
  [
    'myPhotos code',
    patternOf(schemas.MyPhotosRequest.properties.code),
    (value) => isAccessCodeShaped(value.trim().toUpperCase()),
  ],
  [
    'upload path',
    patternOf(schemas.UploadRequest.properties.files.items.properties.path),
    (value) => value.length <= 1000 && isUploadablePath(value),
  ],
  // A header value loses its surrounding white space on the way (HTTP): the service never sees it.
  [
    'X-Tenant-Slug',
    patternOf(document.components.parameters.TenantSlug.schema),
    (value) => value === value.trim() && normalizeTenantSlug(value) !== undefined,
  ],
];

describe('the patterns the OpenAPI document states for the service checks', () => {
  it.each(CASES)('%s: what the pattern takes, the check takes', (_name, pattern, check) => {
    fc.assert(
      fc.property(fc.stringMatching(pattern), (value) => {
        // Segments of inbox paths are at most 255 characters, which the description says.
        fc.pre(value.split('/').every((segment) => segment.length <= 255));
        expect(check(value)).toBe(true);
      }),
      { seed: 31, numRuns: 500 },
    );
  });

  it.each(CASES)('%s: on ASCII text, the pattern and the check agree', (_name, pattern, check) => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
          fc.stringMatching(pattern).map((value) => `${value}x`),
        ),
        (value) => {
          expect(pattern.test(value)).toBe(check(value));
        },
      ),
      { seed: 31, numRuns: 500 },
    );
  });

  it('states a capture time as its format and pattern; only real dates pass the check', () => {
    const capturedAt = schemas.UploadRequest.properties.files.items.properties.capturedAt.anyOf[0];
    expect(capturedAt).toEqual(expect.objectContaining({ format: 'date-time', pattern: expect.any(String) }));
    expect([isCaptureTime('2026-11-20T10:00:01.120Z'), isCaptureTime('2026-02-30T10:00:01.120Z')]).toEqual([
      true,
      false,
    ]);
  });

  it('does not require a name in an import row: such a row is skipped with 200, as the spec says', () => {
    const row = schemas.ImportRequest.properties.persons.items;
    expect(row.required).toBeUndefined();
    expect(row.properties.name).toEqual({ type: 'string', minLength: 1, pattern: '\\S', maxLength: 200 });
    expect(row.description).toMatch(/skipped/);
  });

  it('refuses to build a document with a check it cannot state', () => {
    // Prepare
    const unknownCheck = v.pipe(
      v.string(),
      v.check((value) => value.length % 2 === 0, 'an even length'),
    );
    // Act
    const build = () =>
      toJsonSchema(unknownCheck, { target: 'draft-2020-12', errorMode: 'ignore', overrideAction: enforcedAction });
    // Assess
    expect(build).toThrow(/cannot state the check "an even length"/);
  });

  it('states a trimmed, non-empty text as a pattern of one non-space character, an untrimmed one by its length alone', () => {
    const convert = (schema: v.GenericSchema) =>
      toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore', overrideAction: enforcedAction });
    expect(convert(v.pipe(v.string(), v.trim(), v.nonEmpty()))).toEqual(
      expect.objectContaining({ minLength: 1, pattern: '\\S' }),
    );
    expect(convert(v.pipe(v.string(), v.nonEmpty()))).not.toHaveProperty('pattern');
  });
});
