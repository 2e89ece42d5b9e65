import { writeFileSync } from 'node:fs';
import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { findGallery } from '../cli-kit/lookups';
import { optionalChoice, optionalText, requiredText } from '../cli-kit/options';
import type { CommandHandlers } from './command-types';
import { renderCameraCardsPdf } from '#lib/photos/cards/adapters/camera-card-pdf';
import { listPersons } from '#lib/persons/store/persons';
import { recordCardsPrinted } from '#lib/galleries/store/galleries';
import { nowIso } from '#lib/platform/clock';
import type { GalleryScope, ShootingDay } from '#lib/galleries/rules/gallery-model';
import { sortShootingDays } from '#lib/galleries/rules/gallery-views';
import type { Person } from '#lib/persons/rules/person-model';
import { CARD_PAPERS, type CameraCard, sortCameraCards } from '#lib/photos/cards/rules/camera-card-layout';

const PERSONS_PER_QUERY = 200;

/** Every person of the gallery, page by page. */
async function listAllPersons(scope: GalleryScope): Promise<Person[]> {
  const persons: Person[] = [];
  let afterPersonId: string | undefined;
  do {
    const page = await listPersons(scope, { limit: PERSONS_PER_QUERY, afterPersonId });
    persons.push(...page.persons);
    afterPersonId = page.lastPersonId;
  } while (afterPersonId !== undefined);
  return persons;
}

function dayText(day: ShootingDay | undefined): string | null {
  return day === undefined ? null : `${day.label}, ${day.date}`;
}

/**
 * `cards pdf`: printable camera cards (docs/photos.md#camera-cards) for the persons of a gallery
 * or of one shooting day, for participants imported by HR who never see the check-in page's QR.
 */
export const cardCommands: CommandHandlers = {
  async pdf(values) {
    const out = requiredText(values, 'out', 4096);
    const paper = optionalChoice(values, 'paper', CARD_PAPERS) ?? 'a4';
    const dayId = optionalText(values, 'day', 40);
    const { tenant, configuration } = await findGallery(values);
    const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
    const days = sortShootingDays(configuration.shootingDays);
    if (dayId !== undefined && !days.some((day) => day.id === dayId)) {
      throw new NotFoundError(`Gallery ${scope.token} has no shooting day "${dayId}"`);
    }
    const persons = sortCameraCards(
      (await listAllPersons(scope)).filter((person) => dayId === undefined || person.shootingDayId === dayId),
      days.map((day) => day.id),
    );
    const where = dayId === undefined ? `gallery ${scope.token}` : `shooting day ${dayId}`;
    if (persons.length === 0) throw new NotFoundError(`No persons in ${where}: no cards written`);
    const cards: CameraCard[] = persons.map((person) => ({
      name: person.name,
      code: person.code,
      day: dayText(days.find((day) => day.id === person.shootingDayId)),
    }));
    const pdf = await renderCameraCardsPdf(cards, paper);
    try {
      writeFileSync(out, pdf.bytes);
    } catch (error) {
      throw new UsageError(`--out ${out}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    // What the galleries of the studio console show as printed; the last printing of the gallery, or of the day, replaces the one before.
    await recordCardsPrinted(scope.tenantId, scope.token, dayId ?? null, { cards: cards.length, at: nowIso() });
    const altered = pdf.alteredCards.map((index) => persons[index]!.personId);
    return {
      data: {
        file: out,
        paper,
        dayId: dayId ?? null,
        cards: cards.length,
        pages: pdf.pageCount,
        alteredNames: altered,
      },
      lines: [
        `Wrote ${cards.length} camera card(s) of ${where} on ${pdf.pageCount} ${paper.toUpperCase()} page(s) to ${out}`,
        ...(altered.length === 0
          ? []
          : [
              `${altered.length} name(s) have characters the PDF's standard fonts lack, printed without accents or as "?": ${altered.join(', ')}`,
            ]),
      ],
    };
  },
};
