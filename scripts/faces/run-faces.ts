import { statSync } from 'node:fs';
import { EXIT_CODE, CliError, UsageError, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import { type OptionValues, flag } from '../cli-kit/options';
import { type CliIo, printResult } from '../cli-kit/output';

export const FACES_USAGE = [
  'Usage: npm run faces -- calibrate DIR [--json]',
  '       npm run faces -- calibrate --packaged [--without-augmentations] [--json]',
  '',
  "Describes every photo's main face with the face model and measures how far apart the same person's",
  "faces and different people's faces are: false accepts and false rejects per threshold, the fill-in",
  'outcomes, and the gallery thresholds they suggest, with the admin command that sets them.',
  "  DIR                       one sub-folder per consenting person, holding that person's photos (JPEG, PNG);",
  "                            a person's first photo by name is their reference in the fill-in measure",
  '  --packaged                the faces cut from the photos that installed packages ship (22 people), each also',
  '                            mirrored, recompressed, darker, turned and smaller',
  '  --without-augmentations   with --packaged: the faces as cut only',
  'See docs/photos.md#thresholds.',
];

const OPTIONS = {
  packaged: { type: 'boolean' },
  'without-augmentations': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Photos described between two progress lines. */
const PROGRESS_EVERY = 25;

/** Runs `npm run faces -- <argv>` and returns its exit code; failures are one line on `io.err`. */
export async function runFaces(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || ['help', '--help', '-h'].includes(command)) {
      FACES_USAGE.forEach((line) => io.out(line));
      return command === undefined ? EXIT_CODE.usage : EXIT_CODE.ok;
    }
    if (command !== 'calibrate') throw new UsageError(`Unknown command "${command}": use calibrate, or help`);
    const { values, positionals } = parseCommandLine(rest, OPTIONS, {
      command: 'calibrate',
      help: 'npm run faces -- help',
      allowPositionals: true,
    });
    if (values.help === true) {
      FACES_USAGE.slice(0, 2).forEach((line) => io.out(line));
      return EXIT_CODE.ok;
    }
    return await calibrateCommand(values, positionals, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}

async function calibrateCommand(values: OptionValues, positionals: string[], io: CliIo): Promise<number> {
  const packaged = flag(values, 'packaged');
  if (packaged && positionals.length > 0) throw new UsageError('calibrate takes a folder or --packaged, not both');
  if (!packaged && positionals.length !== 1)
    throw new UsageError('calibrate needs exactly one folder: npm run faces -- calibrate DIR (or --packaged)');
  if (!packaged && flag(values, 'without-augmentations'))
    throw new UsageError('--without-augmentations goes with --packaged only');
  const folder = positionals[0];
  if (folder !== undefined && !statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${folder} is not a folder`);

  // The face model and sharp load with these, not for --help or a refused command line.
  const { calibrateFromPhotos } = await import('#lib/faces/calibration');
  const { DEFAULT_FACE_THRESHOLDS } = await import('#lib/galleries/rules/face-matching');
  const { calibrationLines } = await import('./calibration-lines');
  let photos;
  let copiesPerPhoto = 1;
  if (folder === undefined) {
    const { AUGMENTATIONS, packagedFaces, withAugmentations } = await import('./packaged-faces');
    const faces = await packagedFaces();
    const augmented = !flag(values, 'without-augmentations');
    photos = augmented ? await withAugmentations(faces) : faces;
    if (augmented) copiesPerPhoto = 1 + AUGMENTATIONS.length;
  } else {
    const { readIdentityFolders } = await import('./identity-folders');
    const read = readIdentityFolders(folder);
    if (read.ignored.length > 0)
      io.err(
        `Ignored ${read.ignored.length} file(s) that are not photos in a person's sub-folder: ${read.ignored.slice(0, 5).join(', ')}${read.ignored.length > 5 ? ', …' : ''}`,
      );
    photos = read.photos;
  }
  if (photos.length === 0)
    throw new UsageError(
      `${folder} holds no photos in sub-folders: put each person's photos in a sub-folder named for them`,
    );

  const calibration = await calibrateFromPhotos(photos, {
    current: DEFAULT_FACE_THRESHOLDS,
    copiesPerPhoto,
    onPhotoDescribed: (described, total) => {
      if (described % PROGRESS_EVERY === 0 && described < total) io.err(`Described ${described} of ${total} photos…`);
    },
  });
  const { report } = calibration;
  if (report.identities < 2) {
    throw new CliError(
      `Faces of ${report.identities} person(s) found: calibrating needs at least two people`,
      EXIT_CODE.failed,
    );
  }
  printResult(
    io,
    { data: calibration, lines: calibrationLines(calibration, DEFAULT_FACE_THRESHOLDS) },
    values.json === true,
  );
  return EXIT_CODE.ok;
}
