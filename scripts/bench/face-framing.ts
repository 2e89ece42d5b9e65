import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { mainFace } from '#lib/faces/rules/face-descriptors';
import { backdrop, framedPortrait } from '../faces/framed-faces';
import { packagedFaces } from '../faces/packaged-faces';
import { median, rounded, timed } from './statistics';

export type FaceFramingResult = Awaited<ReturnType<typeof measureFaceFraming>>;

/**
 * What describeFaces's second pass costs on a 24 MP photo (docs/benchmarks/faces.md): the
 * search in one pass, as before issue 41, and the service's path, alternately on the same
 * JPEG, `rounds` times each, for a face at 40 % of a landscape frame's height (one pass
 * suffices), at 10 % (the tiles run) and for the background alone (the tiles and the photo
 * zoomed out run).
 */
export async function measureFaceFraming(rounds: number) {
  await loadFaceModel();
  const [crop] = await packagedFaces();
  const sitter = { ...crop!, face: mainFace(await describeFaces(crop!.image))! };
  const photos: [string, Buffer][] = [
    ['a face at 40 % of the height', (await framedPortrait(sitter, 'landscape', 0.4)).image],
    ['a face at 10 %', (await framedPortrait(sitter, 'landscape', 0.1)).image],
    ['no face', await (await backdrop(sitter, 'landscape')).jpeg({ quality: 90 }).toBuffer()],
  ];
  const rows = [];
  for (const [photo, image] of photos) {
    const [onePass, servicePath]: [number[], number[]] = [[], []];
    await describeFaces(image);
    for (let round = 0; round < rounds; round += 1) {
      onePass.push((await timed(() => describeFaces(image, { secondPass: false }))).milliseconds);
      servicePath.push((await timed(() => describeFaces(image))).milliseconds);
    }
    const [one, service] = [median(onePass), median(servicePath)];
    rows.push({ photo, onePassMs: rounded(one, 0), servicePathMs: rounded(service, 0), ratio: rounded(service / one) });
  }
  return rows;
}
