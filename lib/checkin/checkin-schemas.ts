import * as v from 'valibot';
import { PERSON_LINK_MAX_LENGTH } from '#lib/platform/person-link-token';
import { BodyGalleryToken, FormField, Package, ShootingDay } from '#lib/galleries/gallery-schemas';
import { CheckoutStarted, returnUrlMember } from '#lib/payments/payment-schemas';
import { DomainError } from '#lib/platform/domain-error';
import { CHECKIN_MODES } from '#lib/galleries/rules/checkin-policy';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { LANGUAGES } from '#lib/platform/languages';
import {
  CHECKIN_TEXT_LIMITS,
  MAX_SELFIE_BYTES,
  MAX_SELFIE_PIXELS,
  type LimitedTextField,
} from '#lib/checkin/rules/checkin-limits';
import { mebibytes } from '#lib/platform/byte-sizes';
import {
  type PrecedenceRule,
  jsonObject,
  nullableString,
  optionalLanguage,
  optionalText,
  parseBody,
  requestId,
  requiredText,
  textMessages,
} from '#lib/platform/schema-parts';

/** The documented bodies of the public check-in routes. */
export const CheckinInfo = v.object({
  ok: v.literal(true),
  galleryName: v.string(),
  selfieEnabled: v.boolean(),
  selfieRequired: v.boolean(),
  consentRequired: v.boolean(),
  tenantSlug: v.string(),
  token: v.string(),
  showShootingDaySelector: v.boolean(),
  shootingDays: v.array(ShootingDay),
  packages: v.array(Package),
  formFields: v.array(FormField),
  consentText: nullableString,
  granularConsents: v.object({ face: v.boolean(), notification: v.boolean(), hrExport: v.boolean() }),
  checkinMode: v.pipe(
    v.picklist(CHECKIN_MODES),
    v.description(
      'open: anyone may check in; importedOnly: only the persons the HR import created, by email address or employee ID.',
    ),
  ),
  allowedEmailDomains: v.pipe(
    v.array(v.string()),
    v.description(
      'The domains check-in email addresses must be at (`*.example.com`: its subdomains); empty: any address.',
    ),
  ),
  photoAccess: v.pipe(
    v.object({ codeAndEmail: v.boolean(), codeAndEmployeeId: v.boolean() }),
    v.description(
      'The ways into "My photos" by access code this gallery takes, besides a photo link by email (sendPhotoLink), which is always on.',
    ),
  ),
  defaultLanguage: v.pipe(
    v.picklist(LANGUAGES),
    v.description(
      "The gallery's language: the page's where the browser asks for none of ours, and the language of consentText.",
    ),
  ),
  consentTexts: v.pipe(
    v.record(v.picklist(LANGUAGES), v.string()),
    v.description(
      'The consent text by language: the translations the studio gave, and consentText under defaultLanguage. ' +
        'Where the chosen language has none, the page shows consentText and says that it is not translated.',
    ),
  ),
  termsUrl: v.pipe(
    nullableString,
    v.description('The terms of the paid packages (an https URL) the terms checkbox links to; null: none given.'),
  ),
  branding: v.pipe(
    v.object({
      logoUrl: v.pipe(nullableString, v.description('The logo as a data: URL (WebP, at most 480×160 px); null: none.')),
      accentColor: v.pipe(
        nullableString,
        v.description(
          "#rrggbb with a contrast of at least 4.5:1 against white (#ffffff), for buttons under white text and links on white; null: the page's own.",
        ),
      ),
    }),
    v.description("The gallery's logo and accent colour, each else the tenant's."),
  ),
  requestId,
});

/** Text members in the order their refusals take precedence; their limits are CHECKIN_TEXT_LIMITS'. */
const TEXT_FIELDS = [
  'name',
  'email',
  'employeeId',
  'phone',
  'department',
  'notes',
  'orderNotes',
  'shootingDayId',
  'selectedPackageId',
] as const satisfies readonly LimitedTextField[];
const BOOLEAN_FIELDS = [
  'consentGiven',
  'faceConsent',
  'notificationConsent',
  'hrExportConsent',
  'termsAccepted',
] as const;

const text = (member: LimitedTextField) =>
  optionalText(CHECKIN_TEXT_LIMITS[member], textMessages(member, CHECKIN_TEXT_LIMITS[member]));
const flag = (member: (typeof BOOLEAN_FIELDS)[number]) => v.nullish(v.boolean(`${member} must be true or false.`));

/**
 * A custom field's value, documented as text or a number. The parser passes it on as sent: the
 * gallery's form field decides what it must be (validateCustomFields, which refuses with the
 * field's key), and keys of no enabled field are dropped whatever their value.
 */
const CustomFieldValue = v.pipe(v.unknown(), v.metadata({ anyOf: [{ type: 'string' }, { type: 'number' }] }));

/**
 * The body of the `submitCheckin` action of POST /group-shoot: every rule that needs no gallery
 * (types and limits, blanks as null, strings trimmed). The rules that need the gallery follow in
 * validateCheckin (rules/checkin-request.ts).
 */
export const SubmitCheckinRequest = v.object({
  action: v.literal('submitCheckin'),
  token: BodyGalleryToken,
  name: requiredText(CHECKIN_TEXT_LIMITS.name, textMessages('name', CHECKIN_TEXT_LIMITS.name)),
  email: v.pipe(
    requiredText(CHECKIN_TEXT_LIMITS.email, textMessages('email', CHECKIN_TEXT_LIMITS.email)),
    v.check(isPlausibleEmail, 'email is not a valid address.'),
  ),
  employeeId: text('employeeId'),
  phone: text('phone'),
  department: text('department'),
  notes: text('notes'),
  orderNotes: text('orderNotes'),
  shootingDayId: text('shootingDayId'),
  selectedPackageId: text('selectedPackageId'),
  consentGiven: flag('consentGiven'),
  faceConsent: flag('faceConsent'),
  notificationConsent: flag('notificationConsent'),
  hrExportConsent: flag('hrExportConsent'),
  termsAccepted: flag('termsAccepted'),
  selfieBase64: v.pipe(
    v.nullish(v.pipe(v.string('selfieBase64 must be a string.'), v.trim())),
    v.transform((value) => value || null),
    v.description(
      `JPEG as a data URI or raw base64, at most ${mebibytes(MAX_SELFIE_BYTES)} decoded and ${MAX_SELFIE_PIXELS / 1_000_000} megapixels; ` +
        'stored re-encoded: upright, at most 2048 px on its longer side, without any metadata.',
    ),
  ),
  customFields: v.nullish(
    v.pipe(
      jsonObject('customFields must be an object keyed by form-field key.'),
      v.record(v.string(), CustomFieldValue),
    ),
  ),
  returnUrl: returnUrlMember('Paid packages: the check-in page Stripe returns to.'),
  invitation: v.pipe(
    v.nullish(
      v.pipe(
        v.string('invitation must be a string.'),
        v.trim(),
        v.maxLength(PERSON_LINK_MAX_LENGTH, 'invitation is too long.'),
      ),
    ),
    v.description(
      'importedOnly galleries: the token of the check-in invitation emailed to a person imported with an address (the page reads it from its address). ' +
        'Without one that names such a person, the check-in is refused with invitation_required and the invitation is emailed.',
    ),
  ),
  language: optionalLanguage,
});

export type SubmitCheckinInput = v.InferOutput<typeof SubmitCheckinRequest>;

/**
 * The order of submitCheckin's refusals that need no gallery (docs/api-reference.md, rules 3
 * and 4): name_required, email_required, each text member's type and limit in TEXT_FIELDS'
 * order, the email's plausibility, the booleans, the selfie's type, the custom fields' type, the language.
 */
const SUBMIT_CHECKIN_PRECEDENCE: readonly PrecedenceRule[] = [
  { member: 'name', kind: 'blank', refusal: () => new DomainError('name_required') },
  { member: 'email', kind: 'blank', refusal: () => new DomainError('email_required') },
  ...TEXT_FIELDS.map((member) => ({ member, kind: 'shape' as const })),
  { member: 'email', kind: 'check' },
  ...BOOLEAN_FIELDS.map((member) => ({ member })),
  { member: 'selfieBase64' },
  { member: 'customFields' },
  { member: 'invitation' },
  { member: 'language' },
];

/** A submitCheckin body, parsed, or the refusal its order of precedence puts first. */
export function parseSubmitCheckin(body: unknown): SubmitCheckinInput {
  return parseBody(SubmitCheckinRequest, body, SUBMIT_CHECKIN_PRECEDENCE);
}

/** A free check-in's answer: the person stored. */
export const CheckinDone = v.object({
  ok: v.literal(true),
  personId: v.string(),
  code: v.string(),
  name: v.string(),
  requestId,
});

/** What a check-in answers: the person stored, or for a paid package the Checkout Session to pay it in. */
export const SubmitCheckinResult = v.union([CheckinDone, CheckoutStarted]);
