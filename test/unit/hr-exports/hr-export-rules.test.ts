import { squareAroundFace } from '#lib/hr-exports/rules/crop-geometry';
import { choosePortrait, hasHrExportConsent } from '#lib/hr-exports/rules/export-eligibility';
import { MANIFEST_COLUMNS, manifestRow, spreadsheetSafe } from '#lib/hr-exports/rules/manifest-rows';
import { PortraitFileNamer, fileStemOf } from '#lib/hr-exports/rules/portrait-file-names';
import { isHrExportIdShaped, newHrExportId } from '#lib/hr-exports/rules/hr-export-model';
import type { Photo } from '#lib/photos/common/rules/photo-model';

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

describe('PortraitFileNamer', () => {
  it('names by employee ID, else by person ID', () => {
    const namer = new PortraitFileNamer();
    expect(namer.nameFor({ personId: 'per_1', employeeId: 'E-100' })).toEqual({ fileName: 'E-100.jpg' });
    expect(namer.nameFor({ personId: 'per_2', employeeId: null })).toEqual({ fileName: 'per_2.jpg' });
    expect(namer.nameFor({ personId: 'per_3', employeeId: '   ' })).toEqual({ fileName: 'per_3.jpg' });
  });

  it('gives a suffix to the same ID, to IDs that differ only by case or unsafe characters, and reports the name it wanted', () => {
    const namer = new PortraitFileNamer();
    const names = [
      { personId: 'per_1', employeeId: 'A1' },
      { personId: 'per_2', employeeId: 'A1' },
      { personId: 'per_3', employeeId: 'a1' },
      { personId: 'per_4', employeeId: 'x/y' },
      { personId: 'per_5', employeeId: 'x y' },
      { personId: 'per_6', employeeId: 'A1-2' },
    ].map((person) => namer.nameFor(person));
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

  it('keeps a renamed name within 100 characters before .jpg, cutting the ID to make room for the suffix', () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = 'E'.repeat(100);

    // Act
    const first = namer.nameFor({ personId: 'per_1', employeeId: longId });
    const second = namer.nameFor({ personId: 'per_2', employeeId: longId });

    // Assess
    expect(first).toEqual({ fileName: `${longId}.jpg` });
    expect(second).toEqual({ fileName: `${'E'.repeat(98)}-2.jpg`, renamedFrom: `${longId}.jpg` });
  });

  it('keeps many clashes of a 100-character ID unique and within 100 characters, suffix -10 and on included', () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = `E-${'7'.repeat(98)}`;

    // Act
    const names = Array.from({ length: 12 }, (_, index) =>
      namer.nameFor({ personId: `per_${index + 1}`, employeeId: longId }),
    );

    // Assess
    const stems = names.map((name) => name.fileName.replace(/\.jpg$/, ''));
    for (const stem of stems) expect(stem.length).toBeLessThanOrEqual(100);
    expect(stems[9]).toBe(`${longId.slice(0, 97)}-10`);
    expect(stems[11]).toBe(`${longId.slice(0, 97)}-12`);
    expect(new Set(names.map((name) => name.fileName.toLowerCase())).size).toBe(names.length);
  });

  it('does not let a cut name take the name another ID wants: that ID gets a suffix in turn', () => {
    // Prepare
    const namer = new PortraitFileNamer();
    const longId = 'A'.repeat(100);
    const cutName = `${'A'.repeat(98)}-2`;

    // Act
    const names = [
      namer.nameFor({ personId: 'per_1', employeeId: longId }),
      namer.nameFor({ personId: 'per_2', employeeId: longId }),
      namer.nameFor({ personId: 'per_3', employeeId: cutName }),
    ];

    // Assess
    expect(names.map((name) => name.fileName)).toEqual([`${longId}.jpg`, `${cutName}.jpg`, `${'A'.repeat(98)}-3.jpg`]);
    expect(names[2]?.renamedFrom).toBe(`${cutName}.jpg`);
  });

  it("never gives the manifest's name, a path or a hidden file", () => {
    const namer = new PortraitFileNamer();
    expect(namer.nameFor({ personId: 'per_1', employeeId: 'manifest.csv' }).fileName).toBe('manifest.csv.jpg');
    expect(fileStemOf('../../etc/passwd')).toBe('__.._etc_passwd');
    expect(fileStemOf('.hidden')).toBe('_hidden');
    expect(fileStemOf('x'.repeat(300))).toHaveLength(100);
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
      name: '=cmd',
      email: null,
      fileName: 'per_1.jpg',
      photoId: 'pho_1',
      takenAt: '2027-01-01T00:00:00.000Z',
    });
    expect(MANIFEST_COLUMNS).toEqual(['employeeId', 'name', 'email', 'file', 'photoId', 'takenAt']);
    expect(row).toEqual(['', "'=cmd", '', 'per_1.jpg', 'pho_1', '2027-01-01T00:00:00.000Z']);
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
