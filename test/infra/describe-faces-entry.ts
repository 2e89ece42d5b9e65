/**
 * An entry for function-bundles.test.ts: the face model adapter, bundled as the functions are,
 * so that a fresh Node can load the model and describe faces through the bundle's own files
 * (FACE_MODEL_DIR, FACE_WASM_DIR) and the TensorFlow.js the bundle embeds.
 */
export * from '#lib/faces/adapters/face-model';
