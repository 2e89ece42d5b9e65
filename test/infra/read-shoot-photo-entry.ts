/**
 * An entry for function-bundles.test.ts: the shoot photo reader of the photo ingest, bundled as
 * the functions are, so that a fresh Node can call it through the bundle's own sharp and the
 * ZXing WebAssembly the bundle embeds.
 */
export { readShootPhoto } from '#lib/photos/sorting/adapters/shoot-photo-reader';
