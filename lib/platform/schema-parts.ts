import * as v from 'valibot';
import { type DomainError, invalidField } from '#lib/platform/domain-error';
import { LANGUAGES } from '#lib/platform/languages';

/**
 * Pieces the documented bodies share, requests and answers alike. The bodies themselves are
 * described by the feature that takes or answers them (`lib/<feature>/*-schemas.ts`);
 * lib/http/route-schemas.ts collects them for the OpenAPI document, tests validate recorded real
 * answers against that document, and the request schemas are the parsers of the bodies they
 * document (parseBody).
 */
export const nullableString = v.nullable(v.string());
/**
 * An optional `language` member (submitCheckin, sendPhotoLink): absent or null is "not given"
 * (undefined), anything else must be one of LANGUAGES.
 */
export const optionalLanguage = v.pipe(
  v.nullish(v.picklist(LANGUAGES, `language must be one of ${LANGUAGES.join(', ')}.`)),
  v.transform((value) => value ?? undefined),
  v.description(
    "The participant's language (the page's): the emails to them are written in it; else the gallery's default language.",
  ),
);
export const requestId = v.pipe(v.string(), v.description('Also in the X-Request-Id header.'));

/**
 * What a use case returns for a 200 answer: the documented body without `ok` and `requestId`,
 * which the pipeline adds. Typing results so keeps them from drifting from the document.
 */
export type ResultMembers<Schema extends v.GenericSchema> =
  v.InferOutput<Schema> extends infer Body ? (Body extends unknown ? Omit<Body, 'ok' | 'requestId'> : never) : never;

/** Absent, null, or a string of white space only: a member that was not given. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** A JSON object, not an array: valibot's object and record schemas take arrays too. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Any JSON object (arrays refused with `message`). Put it first in a pipe, before the object or
 * record schema that describes the members: the pipe runs that schema only once this holds, and
 * the document shows that schema alone (the JSON Schema converter cannot convert a custom
 * schema and leaves it out).
 */
export function jsonObject(message: string) {
  return v.custom<Record<string, unknown>>(isJsonObject, message);
}

/** The messages of a text member's refusals. */
export interface TextMessages {
  notString: string;
  tooLong: string;
}

/** The invalid_field messages of a text member of at most `limit` characters. */
export function textMessages(member: string, limit: number): TextMessages {
  return { notString: `${member} must be a string.`, tooLong: `${member} must have at most ${limit} characters.` };
}

/**
 * A required text member, trimmed: a string of 1 to `limit` characters once trimmed. Absent,
 * null and blank give issues of the kind 'blank' (a precedence rule names their refusal).
 */
export function requiredText(limit: number, messages: TextMessages) {
  return v.pipe(v.string(messages.notString), v.trim(), v.nonEmpty(), v.maxLength(limit, messages.tooLong));
}

/**
 * An optional text member: absent, null and blank are "not given" (null); anything else must be
 * a string of at most `limit` characters once trimmed, and is kept trimmed. The document shows
 * the limit (transformations such as the trim are not part of it).
 */
export function optionalText(limit: number, messages: TextMessages) {
  return v.pipe(
    v.nullish(v.pipe(v.string(messages.notString), v.trim(), v.maxLength(limit, messages.tooLong))),
    v.transform((value) => value || null),
  );
}

/** What is wrong with a body member, as a precedence rule tells issues apart. */
export type IssueKind =
  /** absent, null or white space only, whatever the member's type */
  | 'blank'
  /** a v.check over a well-formed value (an address's plausibility, for example) */
  | 'check'
  /** anything else: its type or a limit */
  | 'shape';

/**
 * One step of a body's order of precedence: the issues of one member (of one kind, or of any),
 * and the refusal they give; without `refusal`, invalid_field for the member with the issue's
 * message.
 */
export interface PrecedenceRule {
  member: string;
  kind?: IssueKind;
  refusal?: (issue: v.BaseIssue<unknown>) => DomainError;
}

/** The top-level member an issue is about; undefined for the body itself. */
export function memberOf(issue: v.BaseIssue<unknown>): string | undefined {
  const key = issue.path?.[0]?.key;
  return typeof key === 'string' ? key : undefined;
}

function kindOf(issue: v.BaseIssue<unknown>): IssueKind {
  if (isBlank(issue.input)) return 'blank';
  return issue.type === 'check' ? 'check' : 'shape';
}

/**
 * Parses a request body with its schema, collecting every issue, and refuses it with the issue
 * that comes first in `precedence` (rule by rule, not in the order valibot met them), so that a
 * body broken in several ways gets the refusal the documented order names. An issue no rule
 * names comes after all of them, as invalid_field for its member.
 */
export function parseBody<Schema extends v.GenericSchema>(
  schema: Schema,
  body: unknown,
  precedence: readonly PrecedenceRule[],
): v.InferOutput<Schema> {
  const result = v.safeParse(schema, body, { abortEarly: false });
  if (result.success) return result.output;
  for (const rule of precedence) {
    const issue = result.issues.find(
      (candidate) =>
        memberOf(candidate) === rule.member && (rule.kind === undefined || kindOf(candidate) === rule.kind),
    );
    if (issue) throw rule.refusal ? rule.refusal(issue) : invalidField(rule.member, issue.message);
  }
  const [first] = result.issues;
  throw invalidField(memberOf(first) ?? 'body', first.message);
}
