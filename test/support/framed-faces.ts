/** Portraits framed as a camera frames them, built from the packaged faces: scripts/faces/framed-faces.ts builds them (its measuring script uses them too). */
export {
  FACE_HEIGHT_SHARES,
  FRAMES,
  type Orientation,
  type SittingFace,
  framedPortrait,
  sitterAmong,
} from '../../scripts/faces/framed-faces';
