import * as v from 'valibot';
import { requestId } from '#lib/platform/schema-parts';

/** The documented bodies about a person's photos: the server-side view and the participant's own. */
/** A photo with its signed URL, as the server-side photos route answers it (a participant's own view leaves out the ID). */
export const SignedPhoto = v.object({
  photoId: v.string(),
  fileName: v.string(),
  width: v.nullable(v.number()),
  height: v.nullable(v.number()),
  createdAt: v.string(),
  url: v.pipe(v.string(), v.description('Signed CloudFront URL.')),
});

export const PersonPhotos = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  personId: v.string(),
  urlsExpireAt: v.string(),
  photos: v.array(SignedPhoto),
  requestId,
});

/** myPhotos: the participant's photos, without person or photo IDs. */
export const ParticipantPhotos = v.object({
  ok: v.literal(true),
  name: v.pipe(v.string(), v.description("The participant's name, as checked in or imported.")),
  urlsExpireAt: v.string(),
  photos: v.array(v.omit(SignedPhoto, ['photoId'])),
  requestId,
});
