import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { sortShootingDays, spotsRemaining } from '#lib/galleries/rules/gallery-views';

/** The integrator's dashboard figures, from the gallery's counters alone. */
export function galleryStatistics({ gallery, counters, shootingDays }: GalleryConfiguration) {
  const sorted = sortShootingDays(shootingDays);
  return {
    galleryToken: gallery.token,
    persons: {
      total: counters.personsImported + counters.personsCheckedIn,
      bySource: { import: counters.personsImported, checkin: counters.personsCheckedIn },
      withSelfie: counters.personsWithSelfie,
      withPhotos: counters.personsWithPhotos,
    },
    photos: {
      total: counters.photos,
      unassigned: counters.photosUnassigned,
      withheld: counters.photosWithheld,
      cards: counters.cardPhotos,
    },
    orders: {
      pending: counters.ordersPending,
      paid: counters.ordersPaid,
      expired: counters.ordersExpired,
      canceled: counters.ordersCanceled,
    },
    shootingDays: sorted.map((day) => ({
      id: day.id,
      date: day.date,
      label: day.label,
      booked: day.booked,
      maxPersons: day.maxPersons ?? null,
      spotsRemaining: spotsRemaining(day) ?? null,
    })),
    capacity: {
      configured: sorted.reduce((sum, day) => sum + (day.maxPersons ?? 0), 0),
      booked: sorted.reduce(
        (sum, day) => sum + (day.maxPersons === undefined ? 0 : Math.min(day.booked, day.maxPersons)),
        0,
      ),
      daysWithoutCapacity: sorted.filter((day) => day.maxPersons === undefined).length,
    },
  };
}
