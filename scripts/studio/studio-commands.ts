/**
 * What the studio console does, as the admin CLI does it: each call runs the CLI's own command
 * handler (scripts/admin/) with the options the CLI would parse, and answers with the `data` that
 * `--json` prints. So the console reads and writes through the same use cases, conditions and
 * refusals as `npm run admin`, never a copy of them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMAND_CATALOG } from '../admin/command-catalog';
import type { CommandResult } from '../admin/command-types';
import { NotFoundError, UsageError } from '../cli-kit/cli-errors';
import { type OptionValues, galleryToken } from '../cli-kit/options';
import { requireEnvironment } from '../cli-kit/table-environment';
import { type Photo, sortPhotosByCapture } from '#lib/photos/common/rules/photo-model';
import type { CardsPrinted } from '#lib/galleries/rules/gallery-model';
import type { DeclaredIdentity } from '#lib/persons/rules/person-model';

/** A CLI command's result: its `--json` data and the lines it prints without `--json`. */
export async function runCommandPrinted(
  resource: string,
  command: string,
  values: OptionValues,
): Promise<CommandResult> {
  const spec = COMMAND_CATALOG[resource];
  if (!spec?.commands[command]) throw new Error(`No admin command "${resource} ${command}"`);
  // What the CLI asks for before the command (MEDIA_BUCKET for erasure), with its message: a refusal, not a failure on import.
  requireEnvironment(process.env, spec.commands[command].environment ?? []);
  const handler = (await spec.loadHandlers())[command];
  if (!handler) throw new Error(`No handler for "${resource} ${command}"`);
  return handler(values);
}

/** A CLI command's `--json` data: `runCommand('photo', 'review', { tenant, gallery })` is `npm run admin -- photo review ... --json`. */
export async function runCommand(resource: string, command: string, values: OptionValues): Promise<unknown> {
  return (await runCommandPrinted(resource, command, values)).data;
}

/** A shooting day as the galleries page shows it. */
export interface StudioDay {
  id: string;
  date: string;
  label: string;
  booked: number;
  /** Capacity; null when the day has none. */
  capacity: number | null;
  /** The last printing of the day's cards; null when none was recorded. */
  cardsPrinted: CardsPrinted | null;
}

export interface StudioGallery {
  token: string;
  name: string;
  isGroupShoot: boolean;
  days: StudioDay[];
  /** The last printing of the whole gallery's cards; null when none was recorded. */
  cardsPrinted: CardsPrinted | null;
}

/** `gallery list`, and `day list` of each gallery: the entry page. */
export async function listStudioGalleries(tenant: string): Promise<StudioGallery[]> {
  const galleries = (await runCommand('gallery', 'list', { tenant })) as {
    token: string;
    galleryName: string;
    isGroupShoot?: boolean;
    cardsPrinted?: CardsPrinted;
  }[];
  return Promise.all(
    galleries.map(async (gallery) => {
      const days = (await runCommand('day', 'list', { tenant, gallery: gallery.token })) as {
        id: string;
        date: string;
        label: string;
        booked: number;
        maxPersons?: number;
        cardsPrinted?: CardsPrinted;
      }[];
      return {
        token: gallery.token,
        name: gallery.galleryName,
        isGroupShoot: gallery.isGroupShoot === true,
        days: days.map((day) => ({
          id: day.id,
          date: day.date,
          label: day.label,
          booked: day.booked,
          capacity: day.maxPersons ?? null,
          cardsPrinted: day.cardsPrinted ?? null,
        })),
        cardsPrinted: gallery.cardsPrinted ?? null,
      };
    }),
  );
}

/** A person as the review queue names them, and finds them for an assignment (by name, code or employee ID). */
export interface StudioPerson {
  personId: string;
  name: string;
  code: string;
  employeeId: string | null;
  shootingDayId: string | null;
  /** When they checked in on the page: a check-in's creation, an imported person's own check-in; null for an imported person who has not checked in. */
  checkedInAt: string | null;
  photoCount: number;
  /** What an imported person's own check-in declared where it differs from HR's import; null when nothing does. */
  declared: DeclaredIdentity | null;
}

/** When a person checked in on the page: a check-in's creation, an imported person's own check-in; null for an imported person who has not. */
function checkInTimeOf(person: { source: string; createdAt: string; checkedInAt?: string | null }): string | null {
  return person.source === 'checkin' ? person.createdAt : (person.checkedInAt ?? null);
}

/**
 * Every person of a group-shoot gallery, through the use case of the API's person listing
 * (lib/persons/list-persons.ts), page by page; the admin CLI has no listing of persons.
 */
export async function listStudioPersons(tenant: string, gallery: string): Promise<StudioPerson[]> {
  const [{ findTenant }, { listPersons }] = await Promise.all([
    import('../cli-kit/lookups'),
    import('#lib/persons/list-persons'),
  ]);
  const owner = await findTenant({ tenant });
  const persons: StudioPerson[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listPersons>> = await listPersons(owner, galleryToken({ gallery }), {
      limit: '500',
      ...(cursor ? { cursor } : {}),
    });
    persons.push(
      ...page.persons.map((person) => ({
        personId: person.personId,
        name: person.name,
        code: person.code,
        employeeId: person.employeeId,
        shootingDayId: person.shootingDayId,
        checkedInAt: checkInTimeOf(person),
        photoCount: person.photoCount,
        declared: person.declared,
      })),
    );
    cursor = page.nextCursor;
  } while (cursor);
  return persons;
}

/** A person as the review queue names them: beside a photo, on the release button, in a candidate. */
export interface StudioPersonName {
  personId: string;
  name: string;
  code: string;
  employeeId: string | null;
}

const nameOf = (person: StudioPersonName): StudioPersonName => ({
  personId: person.personId,
  name: person.name,
  code: person.code,
  employeeId: person.employeeId,
});

/** The names of the persons `personIds` (a page's), in one BatchGet; a person gone since is left out. */
export async function nameStudioPersons(
  tenant: string,
  gallery: string,
  personIds: readonly string[],
): Promise<StudioPersonName[]> {
  if (personIds.length === 0) return [];
  const [{ findGallery }, { getPersonsById }] = await Promise.all([
    import('../cli-kit/lookups'),
    import('#lib/persons/store/persons'),
  ]);
  const { tenant: owner, configuration } = await findGallery({ tenant, gallery });
  const persons = await getPersonsById({ tenantId: owner.tenantId, token: configuration.gallery.token }, personIds);
  return persons.map(nameOf);
}

/**
 * The persons a text typed in an assign field names, each through a key of its own: their ID
 * (GetItem), their access code in any case (the code's item), their employee ID (GSI1). Never a
 * read of every person: names are not indexed, so a name finds nobody.
 */
export async function findStudioPersons(tenant: string, gallery: string, typed: string): Promise<StudioPersonName[]> {
  const text = typed.trim();
  if (text === '' || text.length > 200) return [];
  const [{ findGallery }, { getPerson, getPersonsById, listPersons, personIdOfCode }, { isAccessCodeShaped }] =
    await Promise.all([
      import('../cli-kit/lookups'),
      import('#lib/persons/store/persons'),
      import('#lib/persons/rules/access-codes'),
    ]);
  const { tenant: owner, configuration } = await findGallery({ tenant, gallery });
  const scope = { tenantId: owner.tenantId, token: configuration.gallery.token };
  const code = text.toUpperCase();
  const [byId, byCode, byEmployeeId] = await Promise.all([
    getPerson(scope, text),
    isAccessCodeShaped(code) ? personIdOfCode(scope, code) : undefined,
    listPersons(scope, { limit: 5, employeeId: text }),
  ]);
  const found = new Map<string, StudioPersonName>();
  for (const person of [byId, ...byEmployeeId.persons]) if (person) found.set(person.personId, nameOf(person));
  if (byCode && !found.has(byCode))
    for (const person of await getPersonsById(scope, [byCode])) found.set(person.personId, nameOf(person));
  return [...found.values()];
}

/** A person's photo as the person view shows it. */
export interface StudioPersonPhoto extends Photo {
  /** The person's portrait for HR, as `photo pick` set it. */
  picked: boolean;
}

/**
 * A person and their photos in capture order (`photo list`, sorted as an HR export and My
 * photos sort them), with the one their pick names marked. The CLI prints no pick: it is read
 * from the person record, as `photo pick` wrote it.
 */
export async function showStudioPerson(tenant: string, gallery: string, personId: string) {
  const [{ findGallery }, { getPerson }, { pickedPhotoOf }, { consentStates }] = await Promise.all([
    import('../cli-kit/lookups'),
    import('#lib/persons/store/persons'),
    import('#lib/photos/access/rules/portrait-photo'),
    import('#lib/privacy/rules/consent-states'),
  ]);
  const photos = sortPhotosByCapture(
    (await runCommand('photo', 'list', { tenant, gallery, person: personId })) as Photo[],
  );
  const { tenant: owner, configuration } = await findGallery({ tenant, gallery });
  const person = await getPerson({ tenantId: owner.tenantId, token: configuration.gallery.token }, personId);
  if (!person) throw new NotFoundError(`Gallery ${gallery} has no person "${personId}"`);
  const picked = pickedPhotoOf(photos, person.pickedPhotoId);
  return {
    person: {
      personId: person.personId,
      name: person.name,
      code: person.code,
      employeeId: person.employeeId,
      checkedInAt: checkInTimeOf(person),
      declared: person.declared ?? null,
      // Each consent with its last change since check-in, as `person show` lists them.
      consents: consentStates(configuration.gallery, person),
    },
    // The face box stays on the machine, as it stays out of the API's answers.
    photos: photos.map(({ faceBox: _faceBox, ...photo }): StudioPersonPhoto => ({
      ...photo,
      picked: photo.photoId === picked?.photoId,
    })),
  };
}

/** Whether `typed` names the person: their name (any case, outer spaces aside) or their ID. */
function namesPerson(typed: string, person: { personId: string; name: string }): boolean {
  const text = typed.trim();
  return text === person.personId || text.toLowerCase() === person.name.trim().toLowerCase();
}

/**
 * `person erase --person ID`, as the CLI runs it: with `dryRun`, `--dry-run` (what would go,
 * nothing changed); else the erasure itself, once `confirm` names the person (their name or ID),
 * so that a stray click erases nobody. The answer is the CLI's receipt: its data and its lines.
 */
export async function eraseStudioPerson(
  tenant: string,
  gallery: string,
  personId: string,
  request: { dryRun: boolean; confirm?: string },
): Promise<CommandResult> {
  const values = { tenant, gallery, person: personId };
  if (request.dryRun) return runCommandPrinted('person', 'erase', { ...values, 'dry-run': true });
  const { person } = await showStudioPerson(tenant, gallery, personId);
  if (request.confirm === undefined || !namesPerson(request.confirm, person)) {
    throw new UsageError(`Type the name of the person to erase ("${person.name}") to confirm the erasure`);
  }
  return runCommandPrinted('person', 'erase', values);
}

/**
 * `cards pdf` of a gallery or of one of its days, written by the CLI's command into a folder of
 * its own under the system's temporary folder, read back and removed.
 */
export async function printStudioCards(
  tenant: string,
  gallery: string,
  options: { day?: string; paper?: string },
): Promise<{ pdf: Buffer; cards: number; pages: number }> {
  const folder = await mkdtemp(join(tmpdir(), 'studio-cards-'));
  try {
    const out = join(folder, 'cards.pdf');
    const printed = (await runCommand('cards', 'pdf', {
      tenant,
      gallery,
      out,
      ...(options.day ? { day: options.day } : {}),
      ...(options.paper ? { paper: options.paper } : {}),
    })) as {
      cards: number;
      pages: number;
    };
    return { pdf: await readFile(out), cards: printed.cards, pages: printed.pages };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * A group shoot's figures for the galleries page: its photos (assigned to persons, unassigned,
 * withheld) and persons from the use case of the API's gallery statistics
 * (lib/galleries/get-gallery-stats.ts), and its check-ins per day (UTC) from the persons' check-in
 * times. Printed cards are not counted: `cards pdf` writes a file and records nothing.
 */
export async function showStudioGalleryStats(tenant: string, gallery: string) {
  const [{ findTenant }, { getGalleryStats }] = await Promise.all([
    import('../cli-kit/lookups'),
    import('#lib/galleries/get-gallery-stats'),
  ]);
  const stats = await getGalleryStats(await findTenant({ tenant }), galleryToken({ gallery }));
  const checkIns = new Map<string, number>();
  for (const person of await listStudioPersons(tenant, gallery)) {
    const day = person.checkedInAt?.slice(0, 10);
    if (day) checkIns.set(day, (checkIns.get(day) ?? 0) + 1);
  }
  return {
    photos: {
      assigned: stats.photos.total,
      unassigned: stats.photos.unassigned,
      withheld: stats.photos.withheld,
      cardsPhotographed: stats.photos.cards,
    },
    persons: {
      total: stats.persons.total,
      imported: stats.persons.bySource.import,
      checkedIn: stats.persons.bySource.checkin,
    },
    checkInsByDay: [...checkIns].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })),
  };
}

/** Where a person's face can be seen beside a photo withheld for them: their selfie, or their first photo. */
export interface StudioReference {
  kind: 'selfie' | 'first_photo';
  objectKey: string;
}

/**
 * The reference of each person: their selfie where the gallery asks for face consent and the
 * person gave it (the consent under which a selfie becomes a face reference,
 * lib/faces/reference-faces.ts), else their first photo in capture order (`photo list`); none
 * for a person with neither, or gone.
 */
export async function findStudioReferences(
  tenant: string,
  gallery: string,
  personIds: readonly string[],
): Promise<Map<string, StudioReference>> {
  const references = new Map<string, StudioReference>();
  // A queue without face mismatches costs no read.
  if (personIds.length === 0) return references;
  const [{ findGallery }, { getPerson }, { selfieObjectKey }] = await Promise.all([
    import('../cli-kit/lookups'),
    import('#lib/persons/store/persons'),
    import('#lib/platform/media-keys'),
  ]);
  const { tenant: owner, configuration } = await findGallery({ tenant, gallery });
  const scope = { tenantId: owner.tenantId, token: configuration.gallery.token };
  for (const personId of new Set(personIds)) {
    const person = await getPerson(scope, personId);
    if (!person) continue;
    if (configuration.gallery.granularConsents.face && person.consents.faceConsent === true && person.hasSelfie) {
      references.set(personId, { kind: 'selfie', objectKey: selfieObjectKey(scope.tenantId, scope.token, personId) });
      continue;
    }
    const [first] = sortPhotosByCapture(
      (await runCommand('photo', 'list', { tenant, gallery, person: personId })) as Photo[],
    );
    if (first) references.set(personId, { kind: 'first_photo', objectKey: first.objectKey });
  }
  return references;
}
