import * as v from 'valibot';
import { requestId } from '#lib/platform/schema-parts';
import { GALLERY_TOKEN_SOURCE } from '#lib/platform/identifiers';

/** The documented bodies about a gallery's days, packages, form fields and statistics. */

/**
 * The gallery token of a check-in action's body, trimmed. Never refused by the body's parser:
 * the gallery is read before the body is parsed (its refusals come first in the documented
 * order), and a token that is absent, blank or not a string is that read's token_required.
 * The document states the shape of a token the service looks up (any other is gallery_not_found).
 */
export const BodyGalleryToken = v.fallback(
  v.pipe(
    v.string(),
    v.trim(),
    v.metadata({ pattern: `^\\s*${GALLERY_TOKEN_SOURCE}\\s*$` }),
    v.description('The gallery token.'),
  ),
  '',
);

export const ShootingDay = v.object({
  id: v.string(),
  date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  label: v.string(),
  startTime: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
  endTime: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/)),
  maxPersons: v.optional(v.number()),
  spotsRemaining: v.optional(v.pipe(v.number(), v.description('Present when a capacity is configured.'))),
  booked: v.optional(v.pipe(v.number(), v.description('Server-side days endpoint only.'))),
});

export const FormField = v.object({
  key: v.pipe(v.string(), v.description('employeeId, phone, department, notes, or custom-<uuid>.')),
  label: v.string(),
  type: v.picklist(['text', 'textarea', 'number', 'select']),
  required: v.boolean(),
  options: v.optional(v.array(v.object({ value: v.string(), label: v.string() }))),
});

export const Package = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  price: v.pipe(v.number(), v.description('Minor units of the currency (cents).')),
  currency: v.string(),
  requiresPayment: v.boolean(),
});

export const FormFields = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  formFields: v.array(FormField),
  requestId,
});

export const ShootingDays = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  shootingDays: v.array(ShootingDay),
  requestId,
});

const counts = (...names: string[]) => v.object(Object.fromEntries(names.map((name) => [name, v.number()])));
export const GalleryStats = v.object({
  ok: v.literal(true),
  galleryToken: v.string(),
  persons: v.object({
    total: v.number(),
    bySource: counts('import', 'checkin'),
    withSelfie: v.number(),
    withPhotos: v.number(),
  }),
  photos: counts('total', 'unassigned', 'withheld', 'cards'),
  orders: counts('pending', 'paid', 'expired', 'canceled'),
  shootingDays: v.array(
    v.object({
      id: v.string(),
      date: v.string(),
      label: v.string(),
      booked: v.number(),
      maxPersons: v.nullable(v.number()),
      spotsRemaining: v.nullable(v.number()),
    }),
  ),
  capacity: counts('configured', 'booked', 'daysWithoutCapacity'),
  requestId,
});
