import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { mainFace } from '#lib/faces/rules/face-descriptors';
import { framedPortrait } from './framed-faces';
import { packagedFaces } from './packaged-faces';
async function main() {
  await loadFaceModel();
  const [crop] = await packagedFaces();
  const sitter = { ...crop!, face: mainFace(await describeFaces(crop!.image))! };
  const photo = (await framedPortrait(sitter, 'landscape', 0.1)).image;
  for (let i = 0; i < 3; i++) {
    let t = performance.now();
    await sharp(photo).resize({ width: 1024, height: 1024, fit: 'inside' }).raw().toBuffer();
    const d1 = performance.now() - t;
    t = performance.now();
    await sharp(photo).resize({ width: 2048, height: 2048, fit: 'inside' }).raw().toBuffer();
    const d2 = performance.now() - t;
    t = performance.now();
    await describeFaces(photo, { secondPass: false });
    const one = performance.now() - t;
    t = performance.now();
    await describeFaces(photo);
    const two = performance.now() - t;
    console.log({ d1, d2, one, two });
  }
}
void main();
