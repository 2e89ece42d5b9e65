/**
 * An entry for function-bundles.test.ts: the selfie re-encoding of post-group-shoot, bundled as
 * the functions are, so that a fresh Node can call it through the bundle's own sharp.
 */
export { reencodeSelfie } from '#lib/checkin/adapters/selfie-image';
