/**
 * Faces from the photos that installed packages ship, labelled by person, for the tests of the
 * face model: scripts/faces/packaged-faces.ts cuts them (the calibration CLI uses them too).
 */
export {
  AUGMENTATIONS,
  type Augmentation,
  type LabelledFaceImage,
  augment,
  packagedFaceBoxes,
  packagedFaces,
  packagedPhoto,
  THUMBNAILS_IDENTITY,
  withAugmentations,
} from '../../scripts/faces/packaged-faces';
