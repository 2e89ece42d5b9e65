import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FACE_THRESHOLDS, type FaceThresholds } from '#lib/galleries/rules/face-matching';

const docs = join(__dirname, '..', '..', '..', 'docs');
const photos = readFileSync(join(docs, 'photos.md'), 'utf8');
const adminCli = readFileSync(join(docs, 'admin-cli.md'), 'utf8');

/** The text from `start` up to the next `end`. */
function sectionOf(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  expect(from).toBeGreaterThanOrEqual(0);
  return text.slice(from, text.indexOf(end, from + start.length));
}

const defaultsList = sectionOf(photos, '**The defaults**', '\n\n**Detection.**');
const secondOpinion = sectionOf(photos, '**The verdict on a photo that a card gives to a person.**', '\n## ');
const cliSample = sectionOf(adminCli, 'Face matching of gallery', '```');
const distances = Object.entries(DEFAULT_FACE_THRESHOLDS) as [keyof FaceThresholds, number][];

/** The default face distances are DEFAULT_FACE_THRESHOLDS wherever the docs state them (docs/photos.md#thresholds). */
describe('the default face distances in the docs', () => {
  it.each(distances)("states %s as %d in photos.md's defaults", (name, value) => {
    expect(defaultsList).toMatch(new RegExp(`\`${name}\` ${value.toFixed(2).replace('.', '\\.')}\\b`));
  });

  it.each(distances)("prints %s as %d in admin-cli.md's sample output", (name, value) => {
    expect(cliSample).toMatch(new RegExp(`^ +${name} +${value.toFixed(2).replace('.', '\\.')} `, 'm'));
  });

  it('sets exactly the defaults in the command under the defaults', () => {
    const options = distances.map(([name, value]) => `--${name} ${value}`).join(' ');
    expect(defaultsList).toContain(`--gallery TOKEN ${options}\``);
  });

  it('states no default distance in the second opinion section, which refers to the thresholds instead', () => {
    expect(secondOpinion).toContain('(#thresholds)');
    expect(secondOpinion).not.toMatch(/defaults? \d/);
  });
});
