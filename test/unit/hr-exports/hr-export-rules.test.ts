import { squareAroundFace } from '#lib/hr-exports/rules/crop-geometry';
import { choosePortrait, hasHrExportConsent } from '#lib/hr-exports/rules/export-eligibility';
import { MANIFEST_COLUMNS, manifestRow, spreadsheetSafe } from '#lib/hr-exports/rules/manifest-rows';
import { type PersonToName, PortraitFileNamer, fileStemOf } from '#lib/hr-exports/rules/portrait-file-names';
import { employeeIdSourceOf } from '#lib/hr-exports/rules/employee-id-sources';
import { isHrExportIdShaped, newHrExportId } from '#lib/hr-exports/rules/hr-export-model';
import type { Photo } from '#lib/photos/common/rules/photo-model';

/** A person of the HR import, as the namer sees it. */
const imported = (personId: string, employeeId: string | null): PersonToName => ({
  personId,
  employeeId,
  employeeIdSource: employeeIdSourceOf({ source: 'import', employeeId }),
});
/** A person its own check-in created, with the employee ID it typed. */
const checkedIn = (personId: string, employeeId: string | null): PersonToName => ({
  personId,
  employeeId,
  employeeIdSource: employeeIdSourceOf({ source: 'checkin', employeeId }),
});

const photo = (photoId: string): Photo => ({
  photoId,
  personId: 'per_1',
  fileName: `${photoId}.jpg`,
  objectKey: `photos/x/${photoId}.jpg`,
  width: null,
  height: null,
  capturedAt: null,
  createdAt: '2027-01-01T00:00:00.000Z',
});

describe('hasHrExportConsent', () => {
  it.each([
    [true, true],
    [false, false],
    [null, false],
  ])('hrExportConsent %p exports: %p', (hrExportConsent, expected) => {
    expect(hasHrExportConsent({ consents: { hrExportConsent } })).toBe(expected);
  });
});

describe('choosePortrait', () => {
  const photos = [photo('pho_a'), photo('pho_b')];

  it('takes the pick where it is among the photos', () => {
    expect(choosePortrait(photos, 'pho_b')).toEqual({ kind: 'portrait', photo: photos[1] });
  });

  it('takes the first photo without a pick, or with a pick no longer among the photos', () => {
    expect(choosePortrait(photos, undefined)).toEqual({ kind: 'portrait', photo: photos[0] });
    expect(choosePortrait(photos, 'pho_gone')).toEqual({ kind: 'portrait', photo: photos[0] });
  });

  it('skips a person without photos as noPhoto', () => {
    expect(choosePortrait([], 'pho_a')).toEqual({ kind: 'skip', reason: 'noPhoto' });
  });
});

/** The names a namer gives persons, one after the other, as the build asks. */
async function namesInOrder(namer: PortraitFileNamer, persons: PersonToName[]) {
  const names = [];
  for (const person of persons) names.push(await namer.nameFor(person));
  return names;
}

describe('PortraitFileNamer', () => {
  it('names by employee ID, else by person ID', async () => {
    const namer = new PortraitFileNamer();
    expect(await namer.nameFor(imported('per_1', 'E-100'))).toEqual({ fileName: 'E-100.jpg' });
    expect(await namer.nameFor(imported('per_2', null))).toEqual({ fileName: 'per_2.jpg' });
    expect(await namer.nameFor(imported('per_3', '   '))).toEqual({ fileName: 'per_3.jpg' });
  });

  it('gives a suffix to the same ID, to IDs that differ only by case or unsafe characters, and reports the name it wanted', async () => {
    const namer = new PortraitFileNamer();
    const names = await namesInOrder(namer, [
      imported('per_1', 'A1'),
      imported('per_2', 'A1'),
      imported('per_3', 'a1'),
      imported('per_4', 'x/y'),
      imported('per_5', 'x y'),
      imported('per_6', 'A1-2'),
    ]);
    expect(names).toEqual([
      { fileName: 'A1.jpg' },
      { fileName: 'A1-2.jpg', renamedFrom: 'A1.jpg' },
      { fileName: 'a1-3.jpg', renamedFrom: 'a1.jpg' },
      { fileName: 'x_y.jpg' },
      { fileName: 'x_y-2.jpg', renamedFrom: 'x_y.jpg' },
      { fileName: 'A1-2-2.jpg', renamedFrom: 'A1-2.jpg' },
    ]);
    expect(new Set(names.map((name) => name.fileName.toLowerCase())).size).toBe(names.length);
  });

  it('keeps a renamed name within 100 characters before .jpg, cutting the ID to make room for the suffix', async () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = 'E'.repeat(100);

    // Act
    const first = await namer.nameFor(imported('per_1', longId));
    const second = await namer.nameFor(imported('per_2', longId));

    // Assess
    expect(first).toEqual({ fileName: `${longId}.jpg` });
    expect(second).toEqual({ fileName: `${'E'.repeat(98)}-2.jpg`, renamedFrom: `${longId}.jpg` });
  });

  it('keeps many clashes of a 100-character ID unique and within 100 characters, suffix -10 and on included', async () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = `E-${'7'.repeat(98)}`;

    // Act
    const names = await namesInOrder(
      namer,
      Array.from({ length: 12 }, (_, index) => imported(`per_${index + 1}`, longId)),
    );

    // Assess
    const stems = names.map((name) => name.fileName.replace(/\.jpg$/, ''));
    for (const stem of stems) expect(stem.length).toBeLessThanOrEqual(100);
    expect(stems[9]).toBe(`${longId.slice(0, 97)}-10`);
    expect(stems[11]).toBe(`${longId.slice(0, 97)}-12`);
    expect(new Set(names.map((name) => name.fileName.toLowerCase())).size).toBe(names.length);
  });

  it('does not let a cut name take the name another ID wants: that ID gets a suffix in turn', async () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = 'A'.repeat(100);
    const cutName = `${'A'.repeat(98)}-2`;

    // Act
    const names = [
      await namer.nameFor(imported('per_1', longId)),
      await namer.nameFor(imported('per_2', longId)),
      await namer.nameFor(imported('per_3', cutName)),
    ];

    // Assess
    expect(names.map((name) => name.fileName)).toEqual([`${longId}.jpg`, `${cutName}.jpg`, `${'A'.repeat(98)}-3.jpg`]);
    expect(names[2]?.renamedFrom).toBe(`${cutName}.jpg`);
  });

  it("never gives the manifest's name, a path or a hidden file", async () => {
    const namer = new PortraitFileNamer();
    expect((await namer.nameFor(imported('per_1', 'manifest.csv'))).fileName).toBe('manifest.csv.jpg');
    expect(fileStemOf('../../etc/passwd')).toBe('__.._etc_passwd');
    expect(fileStemOf('.hidden')).toBe('_hidden');
    expect(fileStemOf('x'.repeat(300))).toHaveLength(100);
  });
});

describe('employeeIdSourceOf', () => {
  it.each([
    ['import', 'E-40', 'hr'],
    ['checkin', 'E-40', 'declared'],
    ['import', null, null],
    ['checkin', null, null],
    ['checkin', '  ', null],
  ] as const)('a person of source %s with employee ID %p: %p', (source, employeeId, expected) => {
    expect(employeeIdSourceOf({ source, employeeId })).toBe(expected);
  });
});

describe('PortraitFileNamer: declared employee IDs', () => {
  it('names the file of a person who checked in by their person ID, whatever ID they typed, unless the gallery lets declared IDs name files', async () => {
    // Prepare
    const namer = new PortraitFileNamer({ declaredIdsNameFiles: false });

    // Act
    const names = [
      await namer.nameFor(checkedIn('per_pia', 'E-40')),
      await namer.nameFor(imported('per_dan', 'E-40')),
      await namer.nameFor(checkedIn('per_quinn', 'E-77')),
    ];

    // Assess: nobody was renamed, as no declared ID wanted a name.
    expect(names).toEqual([{ fileName: 'per_pia.jpg' }, { fileName: 'E-40.jpg' }, { fileName: 'per_quinn.jpg' }]);
  });

  it('names a declared ID where the gallery lets it, with suffixes among declared IDs as among any', async () => {
    // Prepare
    const namer = new PortraitFileNamer({ declaredIdsNameFiles: true, hrEmployeeIds: [] });

    // Act
    const names = [await namer.nameFor(checkedIn('per_1', 'E-77')), await namer.nameFor(checkedIn('per_2', 'e-77'))];

    // Assess
    expect(names).toEqual([{ fileName: 'E-77.jpg' }, { fileName: 'e-77-2.jpg', renamedFrom: 'e-77.jpg' }]);
  });

  it("never lets a declared ID take the name of an ID HR gave, even where the declared one comes first: that person's file is named by their person ID", async () => {
    // Prepare: HR gave E-40 (Dan) and E/41 (not in this export, no consent); Pia, Rosa and Sam typed them.
    const namer = new PortraitFileNamer({ declaredIdsNameFiles: true, hrEmployeeIds: ['E-40', 'E/41', '  '] });

    // Act
    const names = [
      await namer.nameFor(checkedIn('per_pia', 'E-40')),
      await namer.nameFor(checkedIn('per_rosa', ' e-40 ')),
      await namer.nameFor(checkedIn('per_sam', 'E 41')),
      await namer.nameFor(imported('per_dan', 'E-40')),
    ];

    // Assess
    expect(names).toEqual([
      { fileName: 'per_pia.jpg', renamedFrom: 'E-40.jpg' },
      { fileName: 'per_rosa.jpg', renamedFrom: 'e-40.jpg' },
      { fileName: 'per_sam.jpg', renamedFrom: 'E_41.jpg' },
      { fileName: 'E-40.jpg' },
    ]);
  });

  it('gives HR IDs among themselves the suffix rule in order, whatever the declared IDs', async () => {
    const namer = new PortraitFileNamer({ declaredIdsNameFiles: true, hrEmployeeIds: ['E-1', 'E-1'] });
    expect([
      await namer.nameFor(checkedIn('per_0', 'E-1')),
      await namer.nameFor(imported('per_1', 'E-1')),
      await namer.nameFor(imported('per_2', 'E-1')),
    ]).toEqual([
      { fileName: 'per_0.jpg', renamedFrom: 'E-1.jpg' },
      { fileName: 'E-1.jpg' },
      { fileName: 'E-1-2.jpg', renamedFrom: 'E-1.jpg' },
    ]);
  });

  it('names by person ID without options: declared IDs name no file by default', async () => {
    expect(await new PortraitFileNamer().nameFor(checkedIn('per_1', 'E-9'))).toEqual({ fileName: 'per_1.jpg' });
  });
});

describe('manifest rows', () => {
  it.each(['=HYPERLINK("http://example.com","x")', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])(
    'keeps %j as text with a leading quote',
    (value) => {
      expect(spreadsheetSafe(value)).toBe(`'${value}`);
    },
  );

  it('leaves other text alone', () => {
    expect(spreadsheetSafe('Ada Lovelace')).toBe('Ada Lovelace');
    expect(spreadsheetSafe('E=1')).toBe('E=1');
  });

  it('writes the columns in order, empty where the person has no value, each cell guarded', () => {
    const row = manifestRow({
      employeeId: null,
      employeeIdSource: null,
      name: '=cmd',
      email: null,
      fileName: 'per_1.jpg',
      photoId: 'pho_1',
      takenAt: '2027-01-01T00:00:00.000Z',
    });
    expect(MANIFEST_COLUMNS).toEqual(['employeeId', 'name', 'email', 'file', 'photoId', 'takenAt', 'employeeIdSource']);
    expect(row).toEqual(['', "'=cmd", '', 'per_1.jpg', 'pho_1', '2027-01-01T00:00:00.000Z', '']);
  });

  it.each(['hr', 'declared'] as const)('says where an employee ID came from: %s', (employeeIdSource) => {
    const row = manifestRow({
      employeeId: 'E-40',
      employeeIdSource,
      name: 'Dan',
      email: null,
      fileName: 'E-40.jpg',
      photoId: 'pho_1',
      takenAt: '2027-01-01T00:00:00.000Z',
    });
    expect(row).toEqual(['E-40', 'Dan', '', 'E-40.jpg', 'pho_1', '2027-01-01T00:00:00.000Z', employeeIdSource]);
  });
});

describe('squareAroundFace', () => {
  it('centres a square a little below the face, 2.5 times its size', () => {
    expect(squareAroundFace({ x: 900, y: 500, width: 200, height: 200 }, { width: 2000, height: 2000 })).toEqual({
      left: 750,
      top: 400,
      side: 500,
    });
  });

  it('stays inside the image and never exceeds its shorter side', () => {
    const region = squareAroundFace({ x: 10, y: 10, width: 400, height: 500 }, { width: 800, height: 600 });
    expect(region).toEqual({ left: 0, top: 0, side: 600 });
    const atCorner = squareAroundFace({ x: 750, y: 550, width: 40, height: 40 }, { width: 800, height: 600 });
    expect(atCorner.left + atCorner.side).toBeLessThanOrEqual(800);
    expect(atCorner.top + atCorner.side).toBeLessThanOrEqual(600);
  });
});

describe('export IDs', () => {
  it('are hrx_ and a lowercase ULID, and nothing else is shaped like one', () => {
    expect(isHrExportIdShaped(newHrExportId())).toBe(true);
    expect(isHrExportIdShaped('hrx_../x')).toBe(false);
  });
});
