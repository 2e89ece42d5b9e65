import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaceModelBackendError, faceModelBackend, loadFaceModel } from '#lib/faces/adapters/face-model';

/** The error `load` rejects with; fails the test when it resolves. */
async function refusalOf(load: Promise<void>): Promise<Error> {
  return load.then(
    () => new Error('Expected the load to fail, but it succeeded'),
    (error: Error) => error,
  );
}

// A test file of its own: TensorFlow.js keeps its engine, and so this failed backend, on the global object of the file.
describe('the face model without its .wasm files', () => {
  const emptyFolder = mkdtempSync(join(tmpdir(), 'face-wasm-empty-'));

  afterAll(() => {
    delete process.env.FACE_WASM_DIR;
    rmSync(emptyFolder, { recursive: true, force: true });
  });

  it('refuses to run rather than fall back to the CPU backend, about 20 times slower, and says so again when asked again', async () => {
    // Prepare
    process.env.FACE_WASM_DIR = emptyFolder;
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);

    // Act
    const first = await refusalOf(loadFaceModel());
    const second = await refusalOf(loadFaceModel());

    // Assess
    expect(first).toBeInstanceOf(FaceModelBackendError);
    expect(first.message).toContain(
      `not on its WebAssembly backend: are tfjs-backend-wasm-simd.wasm and tfjs-backend-wasm.wasm in ${emptyFolder}?`,
    );
    expect(second).toBeInstanceOf(FaceModelBackendError);
    expect(second.message).toContain('cannot start it again');
    expect(faceModelBackend()).toBe('not loaded');
  });
});
