import { resetClock, setClock } from '#lib/platform/clock';
import {
  PHOTOS_COALESCING_WINDOW_MS,
  envelopeOf,
  newEventId,
  personCreated,
  photosAssignedWindow,
  photosWithheldWindow,
} from '#lib/events/rules/event-catalogue';
import { samplePerson } from '../../support/event-samples';

const person = samplePerson({
  personId: 'per_01',
  email: 'grace@example.com',
  employeeId: 'E-1',
  phone: '+49 30 1234',
  department: 'Navy',
  notes: 'note',
  shootingDayId: 'day_1',
  code: 'K7QX',
  consents: { consentGiven: true, faceConsent: true, notificationConsent: null, hrExportConsent: null },
  customFields: { 'custom-1': 'm' },
  createdAt: '2026-11-24T00:00:00.000Z',
  hasSelfie: true,
});

afterEach(() => resetClock());

describe('event catalogue', () => {
  it('puts into person.created only what an integration matches on, never name, code, phone, consents or answers', () => {
    const event = personCreated({ tenantId: 'ten_1', galleryToken: 'g1' }, person);
    expect(event.data).toEqual({
      personId: 'per_01',
      source: 'import',
      employeeId: 'E-1',
      email: 'grace@example.com',
      shootingDayId: 'day_1',
    });
    const body = JSON.stringify(envelopeOf(event, 'studio'));
    for (const kept of ['Grace Hopper', 'K7QX', '+49 30 1234', 'Navy', 'custom-1', 'consent'])
      expect(body).not.toContain(kept);
  });

  it('gives each event a new ID that sorts by creation', () => {
    setClock(() => 1_000_000);
    const first = newEventId();
    setClock(() => 2_000_000);
    const second = newEventId();
    expect(first).toMatch(/^evt_[0-9A-Z]{26}$/);
    expect(second > first).toBe(true);
  });

  it('collects one person’s photos of a window into one event, delivered when the window closes', () => {
    const start = 10 * PHOTOS_COALESCING_WINDOW_MS;
    const early = photosAssignedWindow('per_01', start + 1);
    const late = photosAssignedWindow('per_01', start + PHOTOS_COALESCING_WINDOW_MS - 1);
    const next = photosAssignedWindow('per_01', start + PHOTOS_COALESCING_WINDOW_MS);
    const other = photosAssignedWindow('per_02', start + 1);
    expect(late).toEqual(early);
    expect(early.windowEnd).toBe(start + PHOTOS_COALESCING_WINDOW_MS);
    expect(next.eventId).not.toBe(early.eventId);
    expect(other.eventId).not.toBe(early.eventId);
    expect(early.eventId).toMatch(/^evt_[0-9A-Z]{26}$/);
  });

  it('collects one gallery’s withheld photos of a window into one event, apart from any person’s', () => {
    const start = 10 * PHOTOS_COALESCING_WINDOW_MS;
    const early = photosWithheldWindow('g1', start + 1);
    const late = photosWithheldWindow('g1', start + PHOTOS_COALESCING_WINDOW_MS - 1);
    const next = photosWithheldWindow('g1', start + PHOTOS_COALESCING_WINDOW_MS);
    const otherGallery = photosWithheldWindow('g2', start + 1);
    expect(late).toEqual(early);
    expect(early.windowEnd).toBe(start + PHOTOS_COALESCING_WINDOW_MS);
    expect(next.eventId).not.toBe(early.eventId);
    expect(otherGallery.eventId).not.toBe(early.eventId);
    // A person whose ID were the gallery token's still has an event of their own.
    expect(photosAssignedWindow('g1', start + 1).eventId).not.toBe(early.eventId);
    expect(early.eventId).toMatch(/^evt_[0-9A-Z]{26}$/);
  });

  it('wraps an event in the envelope subscribers receive', () => {
    const event = personCreated({ tenantId: 'ten_1', galleryToken: 'g1' }, person);
    expect(envelopeOf(event, 'studio')).toEqual({
      id: event.eventId,
      type: 'person.created',
      createdAt: event.createdAt,
      apiVersion: 'v1',
      tenantSlug: 'studio',
      galleryToken: 'g1',
      data: event.data,
    });
  });
});
