import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { THRESHOLD_BOUNDS } from '#lib/faces/rules/calibration';
import { runFaces } from '../../scripts/faces/run-faces';
import { type LabelledFaceImage, THUMBNAILS_IDENTITY, packagedFaces } from '../support/packaged-faces';

const ROOT = join(__dirname, '..', '..');
const runFile = promisify(execFile);

/** The model's first load, then about a dozen photos, on two shared cores. */
const CALIBRATING = 120_000;

async function faces(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runFaces(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err, text: out.join('\n'), json: () => JSON.parse(out.join('\n')) };
}

describe('npm run faces -- calibrate', () => {
  let folder: string;
  let packaged: LabelledFaceImage[];

  beforeAll(async () => {
    // Prepare: six of the man's thumbnails in one sub-folder, one face each of five women in theirs,
    // a blank photo and a broken file among the man's, and a note next to the sub-folders.
    packaged = await packagedFaces();
    folder = mkdtempSync(join(tmpdir(), 'faces-calibrate-'));
    const write = (person: string, file: string, bytes: Buffer | string) => {
      mkdirSync(join(folder, person), { recursive: true });
      writeFileSync(join(folder, person, file), bytes);
    };
    packaged
      .filter((face) => face.identity === THUMBNAILS_IDENTITY)
      .slice(0, 6)
      .forEach((face, index) => write('man', `photo-${index}.jpg`, face.image));
    packaged
      .filter((face) => face.identity !== THUMBNAILS_IDENTITY)
      .slice(0, 5)
      .forEach((face, index) => write(`woman-${index}`, 'selfie.jpg', face.image));
    write(
      'man',
      'zz-blank.png',
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#7f7f7f' } })
        .png()
        .toBuffer(),
    );
    write('man', 'zz-broken.jpg', 'not a photo');
    write('man', 'notes.txt', 'taken at the studio');
    writeFileSync(join(folder, 'README.txt'), 'one folder per person');
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it(
    'prints the error rates per threshold with their pair counts, the fill-in outcomes and the suggested thresholds with the admin command',
    async () => {
      // Act
      const { code, out, err, text } = await faces('calibrate', folder);

      // Assess
      expect(code).toBe(0);
      expect(err).toEqual([
        "Ignored 2 file(s) that are not photos in a person's sub-folder: man/notes.txt, README.txt",
      ]);
      expect(out[0]).toBe('Described 13 photo(s): 11 face(s) of 6 people, 1 of them with two or more.');
      expect(out[1]).toBe('Left out 2 photo(s): man/zz-blank.png (no face found), man/zz-broken.jpg (not an image)');
      // 6 of the man: 15 genuine pairs; 40 impostor pairs (6 × 5 + 10 among the women).
      const rows = out.filter((line) => /^ {2}0\.\d\d /.test(line));
      expect(rows).toHaveLength(21);
      for (const row of rows)
        expect(row).toMatch(/^ {2}0\.\d\d\s+\d+ of 40\s+[\d.]+ %\s+[\d.]+ %\s+\d+ of 15\s+[\d.]+ %$/);
      expect(text).toMatch(/\n {2}suggested\s+0\.\d+\s+0\.\d+\s+\d+ of 5\s+0\s+\d+\s+0 of 11\n {2}current\s+0\.4/);
      expect(text).toContain('no threshold keeps false accepts below 1 % at 95 % confidence (40 impostor pairs');
      expect(text).toContain('A thin sample (6 people, 1 with two photos or more)');
      expect(out.at(-1)).toMatch(
        /^ {2}npm run admin -- gallery face-matching --tenant SLUG --gallery TOKEN --match 0\.\d+ --mismatch 0\.\d+ --fill 0\.\d+ --margin 0\.\d+$/,
      );
    },
    CALIBRATING,
  );

  it(
    'calibrates on the packaged faces with --packaged, as JSON with --json',
    async () => {
      const { code, json } = await faces('calibrate', '--packaged', '--without-augmentations', '--json');

      expect(code).toBe(0);
      const { report } = json();
      expect({ identities: report.identities, descriptors: report.descriptors }).toEqual({
        identities: 22,
        descriptors: 38,
      });
      // The man's 17 thumbnails: 136 genuine pairs; 21 women and him: 567 impostor pairs.
      expect([report.distances.genuine.pairs, report.distances.impostor.pairs]).toEqual([136, 567]);
      expect(report.distances.genuine.median).toBeLessThan(report.distances.impostor.min);
      for (const name of ['match', 'mismatch', 'fill', 'margin'] as const) {
        expect(report.suggested[name]).toBeGreaterThanOrEqual(THRESHOLD_BOUNDS[name].min);
        expect(report.suggested[name]).toBeLessThanOrEqual(THRESHOLD_BOUNDS[name].max);
      }
    },
    CALIBRATING,
  );

  it.each([
    [[], 2, 'Usage: npm run faces -- calibrate DIR [--json]'],
    [['calibrate'], 2, 'calibrate needs exactly one folder'],
    [['calibrate', '/no/such/folder'], 2, '/no/such/folder is not a folder'],
    [['calibrate', '--packaged', '/tmp'], 2, 'calibrate takes a folder or --packaged, not both'],
    [['calibrate', '/tmp', '--without-augmentations'], 2, '--without-augmentations goes with --packaged only'],
    [['calibrate', '--threshold', '0.5'], 2, 'Unknown option --threshold for "calibrate"'],
    [['enrol'], 2, 'Unknown command "enrol"'],
  ])('refuses %j with exit code %d', async (argv, exitCode, message) => {
    const { code, out, err } = await faces(...argv);

    expect(code).toBe(exitCode);
    expect([...out, ...err].join('\n')).toContain(message);
  });

  it(
    'refuses a folder with the faces of one person only',
    async () => {
      const single = mkdtempSync(join(tmpdir(), 'faces-calibrate-single-'));
      try {
        mkdirSync(join(single, 'man'));
        writeFileSync(
          join(single, 'man', 'photo.jpg'),
          packaged.find((face) => face.identity === THUMBNAILS_IDENTITY)!.image,
        );

        const { code, err } = await faces('calibrate', single);

        expect(code).toBe(1);
        expect(err.at(-1)).toBe('Faces of 1 person(s) found: calibrating needs at least two people');
      } finally {
        rmSync(single, { recursive: true, force: true });
      }
    },
    CALIBRATING,
  );

  it('is npm run faces', async () => {
    const { stdout } = await runFile('npm', ['run', '-s', 'faces', '--', 'help'], { cwd: ROOT });

    expect(stdout).toContain('npm run faces -- calibrate --packaged');
  });
});
