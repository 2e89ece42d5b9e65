import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  faceModelBackend,
  faceModelDirectory,
  faceModelTensorCount,
  loadFaceModel,
} from '#lib/faces/adapters/face-model';

/** The error `load` rejects with; fails the test when it resolves. */
async function refusalOf(load: Promise<void>): Promise<Error> {
  return load.then(
    () => new Error('Expected the load to fail, but it succeeded'),
    (error: Error) => error,
  );
}

// TensorFlow.js keeps its engine on the global object: each test file has one of its own, so
// these tests see a process where the model was never loaded. Their order matters.
describe('loading the face model', () => {
  const emptyFolder = mkdtempSync(join(tmpdir(), 'face-model-empty-'));

  afterAll(() => rmSync(emptyFolder, { recursive: true, force: true }));

  it('loads nothing when imported: the ingest imports it for galleries with face matching only', () => {
    expect([faceModelBackend(), faceModelTensorCount()]).toEqual(['not loaded', 0]);
  });

  it('does not keep a failed load: with the model files found again, the next call loads it', async () => {
    // Prepare
    process.env.FACE_MODEL_DIR = emptyFolder;

    // Act
    const failure = await refusalOf(loadFaceModel());
    delete process.env.FACE_MODEL_DIR;
    await loadFaceModel();

    // Assess
    expect(failure.message).toContain(emptyFolder);
    expect(faceModelDirectory()).toMatch(/@vladmandic\/face-api\/model$/);
    expect(faceModelBackend()).toBe('wasm');
  }, 60_000);
});
