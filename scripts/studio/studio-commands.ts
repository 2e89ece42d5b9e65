/**
 * What the studio console does, as the admin CLI does it: each call runs the CLI's own command
 * handler (scripts/admin/) with the options the CLI would parse, and answers with the `data` that
 * `--json` prints. So the console reads and writes through the same use cases, conditions and
 * refusals as `npm run admin`, never a copy of them.
 */
import { COMMAND_CATALOG } from '../admin/command-catalog';
import { type OptionValues, galleryToken } from '../cli-kit/options';

/** A CLI command's `--json` data: `runCommand('photo', 'review', { tenant, gallery })` is `npm run admin -- photo review ... --json`. */
export async function runCommand(resource: string, command: string, values: OptionValues): Promise<unknown> {
  const spec = COMMAND_CATALOG[resource];
  if (!spec?.commands[command]) throw new Error(`No admin command "${resource} ${command}"`);
  const handler = (await spec.loadHandlers())[command];
  if (!handler) throw new Error(`No handler for "${resource} ${command}"`);
  return (await handler(values)).data;
}

/** A shooting day as the galleries page shows it. */
export interface StudioDay {
  id: string;
  date: string;
  label: string;
  booked: number;
  /** Capacity; null when the day has none. */
  capacity: number | null;
}

export interface StudioGallery {
  token: string;
  name: string;
  isGroupShoot: boolean;
  days: StudioDay[];
}

/** `gallery list`, and `day list` of each gallery: the entry page. */
export async function listStudioGalleries(tenant: string): Promise<StudioGallery[]> {
  const galleries = (await runCommand('gallery', 'list', { tenant })) as { token: string; galleryName: string; isGroupShoot?: boolean }[];
  return Promise.all(
    galleries.map(async (gallery) => {
      const days = (await runCommand('day', 'list', { tenant, gallery: gallery.token })) as { id: string; date: string; label: string; booked: number; maxPersons?: number }[];
      return {
        token: gallery.token,
        name: gallery.galleryName,
        isGroupShoot: gallery.isGroupShoot === true,
        days: days.map((day) => ({ id: day.id, date: day.date, label: day.label, booked: day.booked, capacity: day.maxPersons ?? null })),
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
}

/**
 * Every person of a group-shoot gallery, through the use case of the API's person listing
 * (lib/persons/list-persons.ts), page by page; the admin CLI has no listing of persons.
 */
export async function listStudioPersons(tenant: string, gallery: string): Promise<StudioPerson[]> {
  const [{ findTenant }, { listPersons }] = await Promise.all([import('../cli-kit/lookups'), import('#lib/persons/list-persons')]);
  const owner = await findTenant({ tenant });
  const persons: StudioPerson[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<typeof listPersons>> = await listPersons(owner, galleryToken({ gallery }), { limit: '500', ...(cursor ? { cursor } : {}) });
    persons.push(...page.persons.map((person) => ({ personId: person.personId, name: person.name, code: person.code, employeeId: person.employeeId })));
    cursor = page.nextCursor;
  } while (cursor);
  return persons;
}
