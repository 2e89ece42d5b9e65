import * as v from 'valibot';
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH, isAccessCodeShaped } from '#lib/persons/rules/access-codes';
import { isAbsentOrPlausibleEmail } from '#lib/persons/rules/person-import';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { isCaptureTime } from '#lib/photos/common/rules/capture-time';
import { INBOX_PATH_MAX_LENGTH, isUploadablePath } from '#lib/photos/uploads/rules/inbox';
import { namesEachPathOnce } from '#lib/photos/uploads/upload-schemas';

type Json = Record<string, any>;

/**
 * What the request schemas check that the JSON Schema converter cannot see: `v.check` with a
 * function, and `v.trim` before `v.nonEmpty`. The document states each as the JSON Schema
 * keywords that take exactly the values the check takes, so that a tool trusting the document
 * sends nothing the service refuses as malformed (issue 31).
 */

/** A marker the trim leaves on a string schema while its pipe is converted; removed from the document. */
const TRIMMED = 'x-trimmed';

/** Surrounding white space the schema trims away before its checks. */
const trimmed = (core: string, isTrimmed: boolean) => (isTrimmed ? `^\\s*(?:${core})\\s*$` : `^(?:${core})$`);

/** valibot's own address pattern (isPlausibleEmail is valibot's email action), without its anchors. */
const EMAIL_CORE = v.email().requirement.source.replace(/^\^|\$$/g, '');

/** Access codes are compared in upper case: either case of the alphabet's letters is taken. */
const ACCESS_CODE_CORE = `[${ACCESS_CODE_ALPHABET}${ACCESS_CODE_ALPHABET.replace(/[^A-Z]/g, '').toLowerCase()}]{${ACCESS_CODE_LENGTH}}`;

/**
 * An inbox path (isUploadablePath): up to 3 folders and a JPEG name, each segment starting with a
 * letter or digit, of letters, digits, `. _ -` and spaces, never two dots in a row.
 */
const SEGMENT = '[A-Za-z0-9](?:\\.?[A-Za-z0-9_ -])*';
const INBOX_PATH_CORE = `(?:${SEGMENT}\\.?/){0,3}${SEGMENT}\\.[jJ][pP][eE]?[gG]`;

/**
 * A capture time (isCaptureTime): ISO 8601 in UTC with milliseconds, a real month, day and time
 * of day; that the day exists in its month (no 30 February) the format date-time says.
 */
const CAPTURE_TIME_PATTERN =
  '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d\\.\\d{3}Z$';

/** The keywords of each check by its function; `describedOnly`: no JSON Schema keyword can say it, the description does. */
const CHECKS = new Map<unknown, (isTrimmed: boolean) => Json>([
  [isPlausibleEmail, (isTrimmed) => ({ pattern: trimmed(EMAIL_CORE, isTrimmed) })],
  [isAbsentOrPlausibleEmail, () => ({ pattern: `^\\s*$|${trimmed(EMAIL_CORE, true)}` })],
  [isAccessCodeShaped, (isTrimmed) => ({ pattern: trimmed(ACCESS_CODE_CORE, isTrimmed) })],
  [isUploadablePath, () => ({ pattern: trimmed(INBOX_PATH_CORE, false), maxLength: INBOX_PATH_MAX_LENGTH })],
  [isCaptureTime, () => ({ pattern: CAPTURE_TIME_PATTERN, format: 'date-time' })],
  [namesEachPathOnce, () => ({ 'x-described-only': 'each path at most once' })],
]);

/**
 * The converter's `overrideAction`: the JSON Schema of the actions it cannot convert. A check
 * this module does not know fails the build of the document, so a new check cannot leave the
 * document looser than the service unnoticed.
 */
export function enforcedAction({
  valibotAction,
  jsonSchema,
}: {
  valibotAction: { type: string; requirement?: unknown; message?: unknown };
  jsonSchema: Json;
}): Json | undefined {
  switch (valibotAction.type) {
    case 'trim':
      return { ...jsonSchema, [TRIMMED]: true };
    case 'non_empty':
      // After a trim, white space alone is empty too.
      return jsonSchema[TRIMMED] && jsonSchema.type === 'string' && !jsonSchema.pattern
        ? { ...jsonSchema, pattern: '\\S' }
        : undefined;
    case 'check': {
      const keywords = CHECKS.get(valibotAction.requirement);
      if (!keywords)
        throw new Error(
          `The OpenAPI document cannot state the check "${String(valibotAction.message)}": add its keywords to scripts/openapi/enforced-checks.ts`,
        );
      const { 'x-described-only': _describedOnly, ...stated } = keywords(jsonSchema[TRIMMED] === true);
      return { ...jsonSchema, ...stated };
    }
    default:
      return undefined;
  }
}

/** Removes the trim markers from converted schemas (in place). */
export function withoutMarkers<T>(schema: T): T {
  if (Array.isArray(schema)) schema.forEach(withoutMarkers);
  else if (schema && typeof schema === 'object') {
    delete (schema as Json)[TRIMMED];
    Object.values(schema).forEach(withoutMarkers);
  }
  return schema;
}
