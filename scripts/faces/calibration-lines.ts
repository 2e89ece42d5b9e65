import type { PhotoCalibration } from '#lib/faces/calibration';
import type { FillOutcomes } from '#lib/faces/rules/calibration';
import type { FaceThresholds } from '#lib/galleries/rules/face-matching';
import { formatTable } from '../cli-kit/output';

/** Photos left out named in the summary; the rest are counted. */
const LEFT_OUT_NAMED = 10;
const REASONS = { no_face: 'no face found', unreadable: 'not an image' } as const;

const percent = (rate: number) => (Number.isNaN(rate) ? '-' : `${(rate * 100).toFixed(2)} %`);
const distance = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(3));

/** The admin command that sets the thresholds on a gallery. */
export function adminCommandFor(thresholds: FaceThresholds): string {
  return `npm run admin -- gallery face-matching --tenant SLUG --gallery TOKEN --match ${thresholds.match} --mismatch ${thresholds.mismatch} --fill ${thresholds.fill} --margin ${thresholds.margin}`;
}

/** The calibration as an operator reads it: the photos, the error rates per threshold, the fill-in outcomes and the suggestion. */
export function calibrationLines(calibration: PhotoCalibration, current: FaceThresholds): string[] {
  const { report, leftOut } = calibration;
  const { genuine, impostor } = report.distances;
  const lines = [
    `Described ${calibration.photos} photo(s): ${report.descriptors} face(s) of ${report.identities} people, ${report.identitiesWithPairs} of them with two or more.`,
  ];
  if (leftOut.length > 0) {
    const named = leftOut.slice(0, LEFT_OUT_NAMED).map((photo) => `${photo.source} (${REASONS[photo.reason]})`);
    const more = leftOut.length - named.length;
    lines.push(`Left out ${leftOut.length} photo(s): ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  lines.push(
    '',
    `Distances: same person ${genuine.pairs} pairs, median ${distance(genuine.median)}, max ${distance(genuine.max)}; different people ${impostor.pairs} pairs, min ${distance(impostor.min)}, median ${distance(impostor.median)}.`,
    '',
    'By threshold: false accepts (different people at most this far apart) and false rejects (the same person further apart).',
    ...formatTable(
      ['Threshold', 'False accepts', 'FAR', 'FAR at most (95 %)', 'False rejects', 'FRR'],
      report.rates.map((row) => [
        row.threshold.toFixed(2),
        `${row.falseAccepts} of ${row.impostorPairs}`,
        percent(row.falseAcceptRate),
        percent(row.falseAcceptUpperBound),
        `${row.falseRejects} of ${row.genuinePairs}`,
        percent(row.falseRejectRate),
      ]),
    ),
    '',
    "Fill-in, each person's later photos against everyone's first, and every photo against the others' first only (strangers):",
    ...formatTable(
      ['', 'Fill', 'Margin', 'Right', 'Wrong', 'Abstained', 'Strangers filled'],
      [fillRow('suggested', report.fillIn.suggested), fillRow('current', report.fillIn.current)],
    ),
    '',
    `Suggested: match ${report.suggested.match}, mismatch ${report.suggested.mismatch}, fill ${report.suggested.fill}, margin ${report.suggested.margin} (current: match ${current.match}, mismatch ${current.mismatch}, fill ${current.fill}, margin ${current.margin}).`,
    ...report.notes.map((note) => `  ${note}`),
    '',
    'Set them on a gallery:',
    `  ${adminCommandFor(report.suggested)}`,
  );
  return lines;
}

function fillRow(label: string, outcomes: FillOutcomes): string[] {
  return [
    label,
    String(outcomes.fill),
    String(outcomes.margin),
    `${outcomes.right} of ${outcomes.probes}`,
    String(outcomes.wrong),
    String(outcomes.abstained),
    `${outcomes.strangerFills} of ${outcomes.strangerProbes}`,
  ];
}
