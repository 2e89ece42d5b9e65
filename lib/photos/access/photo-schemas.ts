import * as v from 'valibot';
import { BodyGalleryToken } from '#lib/galleries/gallery-schemas';
import { ACCESS_CODE_LENGTH, isAccessCodeShaped } from '#lib/persons/rules/access-codes';
import { DomainError, invalidField } from '#lib/platform/domain-error';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { PHOTO_LINK_MAX_LENGTH } from '#lib/photos/links/rules/photo-link-token';
import { PERSON_TEXT_LIMITS } from '#lib/persons/rules/person-limits';
import {
  type PrecedenceRule,
  optionalLanguage,
  optionalText,
  parseBody,
  requestId,
  requiredText,
  textMessages,
} from '#lib/platform/schema-parts';

/** The documented bodies about a person's photos: the server-side view and the participant's own, and the participant's requests. */
/** A photo with its signed URL, as the server-side photos route and the participant's own view answer it. */
export const SignedPhoto = v.object({
  photoId: v.pipe(v.string(), v.description('The photo (pho_…): what pickPhoto and admin photo pick name.')),
  fileName: v.string(),
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  capturedAt: v.pipe(
    v.nullable(v.string()),
    v.description(
      'When the photo was taken, as the camera wrote it (EXIF DateTimeOriginal, no time zone applied), ISO 8601 with milliseconds; null when unknown.',
    ),
  ),
  createdAt: v.pipe(v.string(), v.description("When the photo became the person's (its upload), ISO 8601.")),
  url: v.pipe(v.string(), v.description('Signed CloudFront URL.')),
  picked: v.pipe(
    v.boolean(),
    v.description(
      "Whether this is the photo the participant or the photographer picked as the person's portrait (docs/photos.md#picking-the-portrait); false for all without a pick.",
    ),
  ),
});

const PHOTO_ORDER =
  'Oldest first by capture time, then file name; photos without a capture time last, in the order they were uploaded.';

export const PersonPhotos = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  personId: v.string(),
  urlsExpireAt: v.string(),
  pickedPhotoId: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The photo picked as the person's portrait, by the participant (pickPhoto) or the photographer (admin photo pick); null without a pick, or where the picked photo is no longer the person's. Without a pick, the portrait an HR export takes is the first photo.",
    ),
  ),
  photos: v.pipe(v.array(SignedPhoto), v.description(PHOTO_ORDER)),
  requestId,
});

/** myPhotos, photosByLink, pickPhoto: the participant's photos, without the person's ID; each photo's ID is what pickPhoto names. */
export const ParticipantPhotos = v.object({
  ok: v.literal(true),
  name: v.pipe(v.string(), v.description("The participant's name, as checked in or imported.")),
  urlsExpireAt: v.string(),
  photos: v.pipe(v.array(SignedPhoto), v.description(PHOTO_ORDER)),
  faceConsent: v.pipe(
    v.boolean(),
    v.description(
      'Whether the participant currently consents to face matching (their selfie sorts their photos): true only where they gave it at check-in and have not withdrawn it. Where true, withdrawFaceConsent withdraws it.',
    ),
  ),
  requestId,
});

const CODE_MESSAGE = `code must be the ${ACCESS_CODE_LENGTH}-character access code.`;

const accessCode = v.pipe(
  v.string(CODE_MESSAGE),
  v.trim(),
  v.toUpperCase(),
  v.check(isAccessCodeShaped, CODE_MESSAGE),
  v.description(`The ${ACCESS_CODE_LENGTH}-character access code; case and surrounding space are ignored.`),
);

/** The access code's second factors, as myPhotos and pickPhoto take them. */
const secondFactors = {
  email: v.pipe(
    optionalText(PERSON_TEXT_LIMITS.email, textMessages('email', PERSON_TEXT_LIMITS.email)),
    v.description('The second factor, compared without case.'),
  ),
  employeeId: v.pipe(
    optionalText(PERSON_TEXT_LIMITS.employeeId, textMessages('employeeId', PERSON_TEXT_LIMITS.employeeId)),
    v.description('The second factor where the person has no email (exact; ignored when email is given).'),
  ),
};

/** The body of the `myPhotos` action of POST /group-shoot: the access code and a second factor. */
export const MyPhotosRequest = v.object({
  action: v.literal('myPhotos'),
  token: BodyGalleryToken,
  code: accessCode,
  ...secondFactors,
});

export type MyPhotosInput = v.InferOutput<typeof MyPhotosRequest>;

/** An access code and its second factor: what a lookup by code checks (myPhotos, pickPhoto without a photo link). */
export type AccessPair = Pick<MyPhotosInput, 'code' | 'email' | 'employeeId'>;

/**
 * A myPhotos body, parsed: 400 invalid_field for the code, then the email, then the employee
 * ID. A missing second factor is not the body's refusal but the lookup's (unknown_access_pair),
 * one answer for every wrong pair.
 */
export function parseMyPhotos(body: unknown): MyPhotosInput {
  return parseBody(MyPhotosRequest, body, [
    { member: 'code', refusal: () => invalidField('code', CODE_MESSAGE) },
    { member: 'email' },
    { member: 'employeeId' },
  ]);
}

/**
 * The uniform answer of sendPhotoLink, and of a myPhotos lookup past one of its budgets of wrong
 * pairs: it says nothing about whether a person has the address or the pair, or whether an
 * email went out (docs/photos.md#photo-links).
 */
export const PhotoLinkRequested = v.object({
  ok: v.literal(true),
  photoLinkRequested: v.pipe(
    v.literal(true),
    v.description(
      'Where a participant of the gallery has this address (or this code and second factor), they get a link to their photos by email.',
    ),
  ),
  requestId,
});

/** The body of the `sendPhotoLink` action of POST /group-shoot: the gallery, an email address and the language of the email. */
export const SendPhotoLinkRequest = v.object({
  action: v.literal('sendPhotoLink'),
  token: BodyGalleryToken,
  email: v.pipe(
    requiredText(PERSON_TEXT_LIMITS.email, textMessages('email', PERSON_TEXT_LIMITS.email)),
    v.check(isPlausibleEmail, 'email is not a valid address.'),
    v.description('The address to send the photo link to; compared without case.'),
  ),
  language: optionalLanguage,
});

export type SendPhotoLinkInput = v.InferOutput<typeof SendPhotoLinkRequest>;

/** A sendPhotoLink body, parsed: 400 email_required, then invalid_field for the email's type, length or form, then for the language. */
export function parseSendPhotoLink(body: unknown): SendPhotoLinkInput {
  return parseBody(SendPhotoLinkRequest, body, [
    { member: 'email', kind: 'blank', refusal: () => new DomainError('email_required') },
    { member: 'email' },
    { member: 'language' },
  ]);
}

const PHOTO_LINK_MESSAGE = 'photoLink must be the link token from a photo link email.';

const photoLink = v.pipe(
  v.string(PHOTO_LINK_MESSAGE),
  v.trim(),
  v.nonEmpty(PHOTO_LINK_MESSAGE),
  v.maxLength(PHOTO_LINK_MAX_LENGTH, PHOTO_LINK_MESSAGE),
  v.description('The token of a photo link: what follows `#my-photos/link/` in the address the email holds.'),
);

/** The body of the `photosByLink` action of POST /group-shoot: the gallery and the token of a photo link. */
export const PhotosByLinkRequest = v.object({
  action: v.literal('photosByLink'),
  token: BodyGalleryToken,
  photoLink,
});

export type PhotosByLinkInput = v.InferOutput<typeof PhotosByLinkRequest>;

/** A photosByLink body, parsed: 400 invalid_field for a photoLink that is no string, blank or too long. */
export function parsePhotosByLink(body: unknown): PhotosByLinkInput {
  return parseBody(PhotosByLinkRequest, body, [
    { member: 'photoLink', refusal: () => invalidField('photoLink', PHOTO_LINK_MESSAGE) },
  ]);
}

/** Photo IDs are `pho_` and 24 hexadecimal digits; this bound only keeps a body's junk out of a key. */
const PHOTO_ID_MAX_LENGTH = 64;
const PHOTO_ID_MESSAGE = 'photoId must be the ID of one of your photos (pho_…).';
const whoMessage = (action: string) => `${action} needs photoLink, or code with email or employeeId.`;

/**
 * Who the participant is, as the actions that change something of theirs take it (pickPhoto,
 * withdrawFaceConsent): a photo link, or else the access code with its second factor, as for
 * myPhotos. `what`: what the link alone authorises, for the document.
 */
export function participantProofMembers(what: string) {
  return {
    photoLink: v.pipe(
      v.optional(photoLink),
      v.description(
        `The token of a photo link, as for photosByLink. It alone authorises ${what}, for whoever holds the link while it is valid (the link holder's right, by design); where it is given, code and its factors are ignored.`,
      ),
    ),
    code: v.pipe(
      v.optional(accessCode),
      v.description('Without photoLink: the access code, with email or employeeId, as for myPhotos.'),
    ),
    ...secondFactors,
  };
}

/** A body with a participant's proof must hold photoLink or code (`v.metadata`): the parser refuses one with neither, and the document says so. */
export const PROOF_REQUIRED = { anyOf: [{ required: ['photoLink'] }, { required: ['code'] }] } as const;

/**
 * The body of the `pickPhoto` action of POST /group-shoot: the photo to use as the participant's
 * portrait, and who they are: a photo link, or else the access code with its second factor, as
 * for myPhotos.
 */
export const PickPhotoRequest = v.pipe(
  v.object({
    action: v.literal('pickPhoto'),
    token: BodyGalleryToken,
    photoId: v.pipe(
      v.string(PHOTO_ID_MESSAGE),
      v.trim(),
      v.nonEmpty(PHOTO_ID_MESSAGE),
      v.maxLength(PHOTO_ID_MAX_LENGTH, PHOTO_ID_MESSAGE),
      v.description(
        "The photo to use as the participant's portrait: the photoId of one of the photos their answer lists.",
      ),
    ),
    ...participantProofMembers('the pick'),
  }),
  v.metadata(PROOF_REQUIRED),
);

/** Who the participant is: the person of a photo link, or of an access code and its second factor. */
export type ParticipantProof = { photoLink: string } | { accessPair: AccessPair };

export interface PickPhotoInput {
  photoId: string;
  proof: ParticipantProof;
}

/** The refusals of a proof's members, in their order: photoLink, then code, email and employee ID. */
export const PROOF_REFUSALS: readonly PrecedenceRule[] = [
  { member: 'photoLink', refusal: () => invalidField('photoLink', PHOTO_LINK_MESSAGE) },
  { member: 'code', refusal: () => invalidField('code', CODE_MESSAGE) },
  { member: 'email' },
  { member: 'employeeId' },
];

/**
 * The proof of a parsed body: its photo link where it has one, else its access pair; 400
 * invalid_field (`field: photoLink`) for a body with neither. `action` names the action in the message.
 */
export function proofOf(parsed: Partial<AccessPair> & { photoLink?: string }, action: string): ParticipantProof {
  if (parsed.photoLink !== undefined) return { photoLink: parsed.photoLink };
  if (parsed.code === undefined) throw invalidField('photoLink', whoMessage(action));
  return { accessPair: { code: parsed.code, email: parsed.email, employeeId: parsed.employeeId } };
}

/**
 * A pickPhoto body, parsed: 400 invalid_field for the photoId, then the photoLink, then the
 * code, email and employee ID, then for a body with neither photoLink nor code.
 */
export function parsePickPhoto(body: unknown): PickPhotoInput {
  const parsed = parseBody(PickPhotoRequest, body, [
    { member: 'photoId', refusal: () => invalidField('photoId', PHOTO_ID_MESSAGE) },
    ...PROOF_REFUSALS,
  ]);
  return { photoId: parsed.photoId, proof: proofOf(parsed, 'pickPhoto') };
}
