import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertPersonsWithCodes } from '#lib/persons/store/access-code-allocation';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import type { Person, PersonDraft } from '#lib/persons/rules/person-model';
import { PAPER_SIZES } from '#lib/photos/cards/rules/camera-card-layout';
import { admin } from '../support/admin';
import { samplePerson } from '../support/event-samples';
import { type TestTenant, createTestTenant } from '../support/factories';
import { qrTextsInPng } from '../support/qr-reader';
import { useTestTable } from '../support/test-table';

useTestTable();

function draft(name: string, employeeId: string | null, shootingDayId: string | null): PersonDraft {
  return samplePerson({ name, email: null, employeeId, department: null, shootingDayId });
}

/** The PDF's pages as PNG files (poppler's pdftoppm), in page order. */
function renderPages(pdfFile: string, directory: string): string[] {
  execFileSync('pdftoppm', ['-r', '100', '-gray', '-png', pdfFile, join(directory, 'page')]);
  return readdirSync(directory)
    .filter((file) => file.startsWith('page') && file.endsWith('.png'))
    .sort()
    .map((file) => join(directory, file));
}

/** Every QR code text on every page. */
async function decodeQrCodes(pages: string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const page of pages) {
    texts.push(...(await qrTextsInPng(readFileSync(page))));
  }
  return texts;
}

/** Page sizes in points, as pdfinfo prints them ("Page    1 size:  595.28 x 841.89 pts (A4)"). */
function pageSizes(pdfFile: string): Array<{ width: number; height: number }> {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '999', pdfFile], { encoding: 'utf8' });
  return [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/g)].map((match) => ({
    width: Number(match[1]),
    height: Number(match[2]),
  }));
}

describe('npm run admin -- cards pdf', () => {
  let studio: TestTenant;
  let persons: Person[];
  let directory: string;
  const gallery = () => ['--tenant', studio.slug, '--gallery', studio.token];

  beforeAll(async () => {
    studio = await createTestTenant();
    const { earlier, later } = studio.days;
    const { written } = await insertPersonsWithCodes({ tenantId: studio.tenant.tenantId, token: studio.token }, [
      draft('Ada Lovelace', 'E-1001', earlier.id),
      draft('Zoë Müller-Lüdenscheidt', 'E-1002', earlier.id),
      draft('Łukasz Wąsowski', null, earlier.id),
      draft('王伟', 'E-1004', later.id),
      draft('Bartholomew Maximilian Featherstonehaugh-Cholmondeley the Third of Nether Wallop', 'E-1005', later.id),
      draft('Grace Hopper', 'E-1006', null),
    ]);
    persons = written;
    directory = mkdtempSync(join(tmpdir(), 'camera-cards-'));
  });

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it.each([
    ['a4', PAPER_SIZES.a4],
    ['letter', PAPER_SIZES.letter],
  ] as const)(
    'prints one card per person on %s pages, each QR code reading exactly the access code',
    async (paper, size) => {
      // Prepare
      const out = join(directory, `all-${paper}.pdf`);
      const pagesDirectory = mkdtempSync(join(directory, `pages-${paper}-`));
      // Act
      const run = await admin('cards', 'pdf', ...gallery(), '--paper', paper, '--out', out, '--json');
      // Assess
      expect(run.code).toBe(0);
      expect(run.json()).toEqual(expect.objectContaining({ cards: 6, pages: 2, paper }));
      const sizes = pageSizes(out);
      expect(sizes).toHaveLength(2);
      for (const pageSize of sizes) {
        expect(pageSize.width).toBeCloseTo(size.width, 1);
        expect(pageSize.height).toBeCloseTo(size.height, 1);
      }
      const decoded = await decodeQrCodes(renderPages(out, pagesDirectory));
      expect(decoded.sort()).toEqual(persons.map((person) => person.code).sort());
    },
  );

  it('prints name and code as text but no employee ID, and reduces names to the standard fonts', async () => {
    // Prepare
    const out = join(directory, 'text.pdf');
    // Act
    const run = await admin('cards', 'pdf', ...gallery(), '--out', out, '--json');
    const text = execFileSync('pdftotext', ['-layout', out, '-'], { encoding: 'utf8' });
    // Assess
    expect(run.code).toBe(0);
    for (const person of persons) expect(text).toContain(person.code);
    expect(text).toContain('Ada Lovelace');
    expect(text).not.toMatch(/Employee ID|E-1001/);
    expect(text).toContain('Zoë Müller-Lüdenscheidt'); // Windows-1252 has these letters
    expect(text).toContain('Lukasz Wasowski'); // ...and not these
    expect(text).toContain('Bartholomew'); // a long name is shrunk or shortened, not dropped
    const altered = persons
      .filter((person) => ['Łukasz Wąsowski', '王伟'].includes(person.name))
      .map((person) => person.personId);
    expect(run.json().alteredNames.sort()).toEqual(altered.sort());
  });

  it('prints only the persons of the shooting day given with --day', async () => {
    // Prepare
    const out = join(directory, 'day.pdf');
    const pagesDirectory = mkdtempSync(join(directory, 'pages-day-'));
    const earlierCodes = persons
      .filter((person) => person.shootingDayId === studio.days.earlier.id)
      .map((person) => person.code);
    // Act
    const run = await admin('cards', 'pdf', ...gallery(), '--day', studio.days.earlier.id, '--out', out);
    // Assess
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/Wrote 3 camera card\(s\) of shooting day day_\w+ on 1 A4 page\(s\)/);
    expect((await decodeQrCodes(renderPages(out, pagesDirectory))).sort()).toEqual(earlierCodes.sort());
    expect(execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' })).not.toContain('Grace Hopper');
  });

  it.each<[string, () => string[], number, RegExp]>([
    [
      'an unknown day',
      () => ['--day', 'day_nope', '--out', join(directory, 'x.pdf')],
      1,
      /has no shooting day "day_nope"/,
    ],
    [
      'an unknown paper size',
      () => ['--paper', 'a3', '--out', join(directory, 'x.pdf')],
      2,
      /--paper "a3" is not valid/,
    ],
    ['no --out', () => [], 2, /--out is required/],
    ['a directory that does not exist', () => ['--out', join(directory, 'missing', 'x.pdf')], 2, /cannot write it/],
  ])('refuses %s', async (_case, options, code, message) => {
    const run = await admin('cards', 'pdf', ...gallery(), ...options());
    expect({ code: run.code, err: run.err }).toEqual({ code, err: [expect.stringMatching(message)] });
  });

  it('records the last printing of the gallery and of a day, and not a printing that failed', async () => {
    // Prepare
    const configurationNow = async () => (await getGalleryConfiguration(studio.tenant.tenantId, studio.token))!;
    const before = await configurationNow();
    // Act
    const failed = await admin('cards', 'pdf', ...gallery(), '--out', join(directory, 'missing', 'x.pdf'));
    const afterFailure = await configurationNow();
    const ofDay = await admin(
      'cards',
      'pdf',
      ...gallery(),
      '--day',
      studio.days.earlier.id,
      '--out',
      join(directory, 'recorded-day.pdf'),
    );
    const ofGallery = await admin('cards', 'pdf', ...gallery(), '--out', join(directory, 'recorded.pdf'));
    const after = await configurationNow();
    // Assess
    expect([failed.code, ofDay.code, ofGallery.code]).toEqual([2, 0, 0]);
    expect(afterFailure.gallery.cardsPrinted).toEqual(before.gallery.cardsPrinted);
    expect(afterFailure.shootingDays.find((day) => day.id === studio.days.earlier.id)?.cardsPrinted).toEqual(
      before.shootingDays.find((day) => day.id === studio.days.earlier.id)?.cardsPrinted,
    );
    expect(after.gallery.cardsPrinted).toEqual({
      cards: persons.length,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(after.shootingDays.find((day) => day.id === studio.days.earlier.id)?.cardsPrinted).toEqual({
      cards: 3,
      at: expect.any(String),
    });
    expect(
      after.gallery.cardsPrinted!.at >=
        after.shootingDays.find((day) => day.id === studio.days.earlier.id)!.cardsPrinted!.at,
    ).toBe(true);
  });

  it('refuses a gallery without persons', async () => {
    const empty = await createTestTenant();
    const run = await admin(
      'cards',
      'pdf',
      '--tenant',
      empty.slug,
      '--gallery',
      empty.token,
      '--out',
      join(directory, 'none.pdf'),
    );
    expect({ code: run.code, err: run.err }).toEqual({
      code: 1,
      err: [expect.stringMatching(/No persons in gallery/)],
    });
  });
});
