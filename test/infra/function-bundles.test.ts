import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { decode } from 'jpeg-js';
import sharp from 'sharp';
import {
  FACE_MODEL_FILES,
  FACE_MODEL_FOLDER,
  FACE_WASM_FILES,
  FACE_WASM_FOLDER,
  faceModelEnvironment,
} from '../../infra/face-model-assets';
import {
  FACE_MODEL_FILES as ADAPTER_MODEL_FILES,
  FACE_WASM_FILES as ADAPTER_WASM_FILES,
} from '#lib/faces/adapters/face-model';
import { BUNDLE_ENTRY_FILE, bundleEnvironment, bundleFunction } from '../../infra/function-bundle';
import type { FunctionArchitecture } from '../../infra/native-packages';
import { METADATA_TRACES, jpegStructure, phonePictureWithEverything } from '../support/phone-jpegs';
import { cardJpeg } from '../../scripts/samples/synthetic-shoot';

const ROOT = join(__dirname, '..', '..');
const runFile = promisify(execFile);

const handlers = readdirSync(join(ROOT, 'functions'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();

// Imports every file given, in a fresh Node, and prints what the entry exports as `handler`.
const IMPORT_ALL = `
const [entry, ...chunks] = process.argv.slice(1);
for (const chunk of chunks) await import(chunk);
const { handler } = await import(entry);
process.stdout.write(typeof handler);
`;

const FRESH_NODE_ENV = {
  PATH: process.env.PATH ?? '',
  TABLE_NAME: 'groupshoot-bundle-test',
  MEDIA_BUCKET: 'groupshoot-bundle-test-media',
  AWS_REGION: 'eu-central-1',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * The functions whose code reaches the face model (lib/faces/adapters/face-model.ts), and so
 * carry its files. The photo ingest joins them when its second opinion from faces lands.
 */
const FACE_MODEL_HANDLERS = ['faces/describe-reference-faces', 'photos/sorting/ingest-photo'];

describe('function bundles, as the stack deploys them', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it.each(handlers)(
    '%s: the entry exports a handler, and every chunk loaded on demand loads in Node',
    async (handler) => {
      // Prepare
      const bundleDir = join(outDir, handler);
      const entry = bundleFunction(join(ROOT, 'functions', `${handler}.ts`), bundleDir, ROOT);
      const chunks = readdirSync(bundleDir, { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs') && file !== BUNDLE_ENTRY_FILE && !file.startsWith('node_modules'))
        .map((file) => join(bundleDir, file));

      // Act
      const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', IMPORT_ALL, entry, ...chunks], {
        cwd: tmpdir(),
        env: FRESH_NODE_ENV,
      });

      // Assess
      expect(stdout).toBe('function');
      expect(relative(bundleDir, entry)).toBe(BUNDLE_ENTRY_FILE);
      expect(existsSync(join(bundleDir, FACE_MODEL_FOLDER))).toBe(FACE_MODEL_HANDLERS.includes(handler));
    },
    30_000,
  );
});

/** The ELF header's machine (e_machine) of a binary: 0xB7 is AArch64, 0x3E x86-64. */
function elfMachineOf(file: string): number {
  const header = readFileSync(file).subarray(0, 20);
  expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
  expect(header[4]).toBe(2); // 64-bit
  expect(header[5]).toBe(1); // little-endian
  return header.readUInt16LE(18);
}

const filesUnder = (directory: string) =>
  readdirSync(directory, { recursive: true, encoding: 'utf8' }).map((file) => join(directory, file));

describe('sharp in the bundles: the selfie re-encoding of post-group-shoot', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'sharp-bundles-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  const rootSharpVersion = JSON.parse(
    readFileSync(join(ROOT, 'node_modules', 'sharp', 'package.json'), 'utf8'),
  ).version;

  it("carries sharp's linux-arm64 binary and libvips, ELF for AArch64, in the arm64 bundle the stack deploys", () => {
    // Act
    const bundleDir = join(outDir, 'post-group-shoot-arm64');
    bundleFunction(join(ROOT, 'functions', 'checkin', 'post-group-shoot.ts'), bundleDir, ROOT);

    // Assess
    const modules = join(bundleDir, 'node_modules');
    const binaries = filesUnder(join(modules, '@img', 'sharp-linux-arm64')).filter((file) => file.endsWith('.node'));
    const libvips = filesUnder(join(modules, '@img', 'sharp-libvips-linux-arm64')).filter((file) =>
      /libvips-cpp\.so/.test(file),
    );
    expect(binaries).toHaveLength(1);
    expect(libvips).toHaveLength(1);
    expect([...binaries, ...libvips].map(elfMachineOf)).toEqual([0xb7, 0xb7]);
    expect(existsSync(join(modules, '@img', 'sharp-linux-x64'))).toBe(false);
    expect(JSON.parse(readFileSync(join(modules, 'sharp', 'package.json'), 'utf8')).version).toBe(rootSharpVersion);
    for (const dependency of ['detect-libc', 'semver', '@img/colour'])
      expect(existsSync(join(modules, dependency, 'package.json'))).toBe(true);
  }, 30_000);

  it('carries no native package in a bundle that does not reach sharp', () => {
    const bundleDir = join(outDir, 'get-checkin-info');

    bundleFunction(join(ROOT, 'functions', 'checkin', 'get-checkin-info.ts'), bundleDir, ROOT);

    expect(existsSync(join(bundleDir, 'node_modules'))).toBe(false);
  });

  // Calls reencodeSelfie through the bundle, then names the native libraries the process loaded.
  const REENCODE = `
const [entry, input, output] = process.argv.slice(1);
const { readFileSync, writeFileSync } = await import('node:fs');
const { reencodeSelfie } = await import(entry);
writeFileSync(output, await reencodeSelfie(readFileSync(input)));
const loaded = readFileSync('/proc/self/maps', 'utf8').split('\\n').map((line) => line.split(/\\s+/)[5] ?? '');
process.stdout.write(JSON.stringify([...new Set(loaded.filter((path) => /sharp|vips/.test(path)))]));
`;

  it(`re-encodes a phone picture through the bundle's own sharp in a fresh Node, bundled for this machine (${process.arch})`, async () => {
    // Prepare
    const architecture = process.arch as FunctionArchitecture;
    const bundleDir = join(outDir, `reencode-${architecture}`);
    const entry = bundleFunction(
      join(ROOT, 'test', 'infra', 'reencode-selfie-entry.ts'),
      bundleDir,
      ROOT,
      architecture,
    );
    const input = join(outDir, 'sent.jpg');
    const output = join(outDir, 'stored.jpg');
    writeFileSync(input, await phonePictureWithEverything());

    // Act
    const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', REENCODE, entry, input, output], {
      cwd: tmpdir(),
      env: FRESH_NODE_ENV,
    });

    // Assess
    const loaded: string[] = JSON.parse(stdout);
    expect(loaded.length).toBeGreaterThanOrEqual(2);
    expect(loaded.filter((path) => !path.startsWith(join(bundleDir, 'node_modules')))).toEqual([]);
    const stored = readFileSync(output);
    expect(jpegStructure(stored).end).toBe(stored.length);
    expect(METADATA_TRACES.filter(([, trace]) => stored.includes(trace)).map(([name]) => name)).toEqual([]);
    const metadata = await sharp(stored).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.exif]).toEqual(['jpeg', 300, 400, undefined]);
    expect(decode(stored).width).toBe(300);
  }, 30_000);
});

describe('sharp and ZXing in the bundles: the shoot photo reader of the photo ingest', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'zxing-bundles-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  // "\0asm", the start of every WebAssembly module, as esbuild's binary loader writes it (base64).
  const EMBEDDED_WASM = Buffer.from('\0asm\x01\0\0\0').toString('base64').slice(0, 10);

  it("carries sharp's linux-arm64 binary, and ZXing's WebAssembly in a chunk loaded on demand, in the arm64 ingest bundle the stack deploys", () => {
    // Act
    const bundleDir = join(outDir, 'ingest-photo-arm64');
    const entry = bundleFunction(join(ROOT, 'functions', 'photos', 'sorting', 'ingest-photo.ts'), bundleDir, ROOT);

    // Assess
    const binaries = filesUnder(join(bundleDir, 'node_modules', '@img', 'sharp-linux-arm64')).filter((file) =>
      file.endsWith('.node'),
    );
    expect(binaries.map(elfMachineOf)).toEqual([0xb7]);
    const chunks = filesUnder(join(bundleDir, 'chunks')).filter((file) => file.endsWith('.mjs'));
    expect(chunks.filter((file) => readFileSync(file, 'latin1').includes(EMBEDDED_WASM))).toHaveLength(1);
    expect(readFileSync(entry, 'latin1')).not.toContain(EMBEDDED_WASM);
    // (TensorFlow.js's WebAssembly, once the ingest reaches the face model, is a file of its own folder.)
    expect(
      filesUnder(bundleDir).filter(
        (file) => file.endsWith('.wasm') && !file.startsWith(join(bundleDir, FACE_WASM_FOLDER)),
      ),
    ).toEqual([]);
  }, 30_000);

  // Reads the photo through the bundle with fetch made to fail (ZXing would fetch its WebAssembly from a CDN).
  const READ = `
const [entry, input] = process.argv.slice(1);
globalThis.fetch = async () => { throw new Error('fetch is not for the shoot photo reader'); };
const { readFileSync } = await import('node:fs');
const { readShootPhoto } = await import(entry);
const reading = await readShootPhoto(readFileSync(input));
const loaded = readFileSync('/proc/self/maps', 'utf8').split('\\n').map((line) => line.split(/\\s+/)[5] ?? '');
process.stdout.write(JSON.stringify({ reading, loaded: [...new Set(loaded.filter((path) => /sharp|vips/.test(path)))] }));
`;

  it(`reads the code of a card photo through the bundle in a fresh Node, bundled for this machine (${process.arch})`, async () => {
    // Prepare
    const architecture = process.arch as FunctionArchitecture;
    const bundleDir = join(outDir, `reader-${architecture}`);
    const entry = bundleFunction(
      join(ROOT, 'test', 'infra', 'read-shoot-photo-entry.ts'),
      bundleDir,
      ROOT,
      architecture,
    );
    const input = join(outDir, 'card.jpg');
    const camera = { make: 'Canon', model: 'EOS R6', serial: '031001' };
    writeFileSync(
      input,
      await cardJpeg({
        width: 1600,
        height: 1067,
        text: 'K7QM',
        size: 0.08,
        angle: 30,
        blur: 0.3,
        capturedAt: '2026-11-20T10:00:01.120Z',
        camera,
      }),
    );

    // Act
    const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', READ, entry, input], {
      cwd: tmpdir(),
      env: FRESH_NODE_ENV,
    });

    // Assess
    const { reading, loaded } = JSON.parse(stdout) as { reading: unknown; loaded: string[] };
    expect(reading).toEqual({
      width: 1600,
      height: 1067,
      capturedAt: '2026-11-20T10:00:01.120Z',
      camera: 'Canon EOS R6 #031001',
      codes: ['K7QM'],
    });
    expect(loaded.length).toBeGreaterThanOrEqual(2);
    expect(loaded.filter((path) => !path.startsWith(join(bundleDir, 'node_modules')))).toEqual([]);
  }, 30_000);
});

describe('the face model in the bundles: reference faces, and the second opinion of the photo ingest', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'face-model-bundles-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  const sourceOf = (folder: string, file: string) =>
    folder === FACE_MODEL_FOLDER
      ? join(ROOT, 'node_modules', '@vladmandic', 'face-api', 'model', file)
      : join(ROOT, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist', file);

  it("carries face-api's three networks and TensorFlow.js's WebAssembly in folders of their own, and the variables that name them in Lambda", () => {
    // Act
    const bundleDir = join(outDir, 'describe-reference-faces');
    bundleFunction(join(ROOT, 'functions', 'faces', 'describe-reference-faces.ts'), bundleDir, ROOT);

    // Assess
    expect(FACE_MODEL_FILES.filter((file) => file.endsWith('.json')).sort()).toEqual([
      'face_landmark_68_model-weights_manifest.json',
      'face_recognition_model-weights_manifest.json',
      'ssd_mobilenetv1_model-weights_manifest.json',
    ]);
    expect(FACE_WASM_FILES).toEqual(expect.arrayContaining(['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm']));
    // Every file the adapter reads is among those the bundle carries.
    expect(FACE_MODEL_FILES).toEqual(expect.arrayContaining([...ADAPTER_MODEL_FILES]));
    expect(FACE_WASM_FILES).toEqual(expect.arrayContaining([...ADAPTER_WASM_FILES]));
    for (const [folder, files] of [
      [FACE_MODEL_FOLDER, FACE_MODEL_FILES],
      [FACE_WASM_FOLDER, FACE_WASM_FILES],
    ] as const) {
      expect(readdirSync(join(bundleDir, folder)).sort()).toEqual([...files].sort());
      for (const file of files)
        expect([
          file,
          readFileSync(join(bundleDir, folder, file)).equals(readFileSync(sourceOf(folder, file))),
        ]).toEqual([file, true]);
    }
    expect(bundleEnvironment(bundleDir)).toEqual({
      FACE_MODEL_DIR: '/var/task/face-model',
      FACE_WASM_DIR: '/var/task/face-wasm/',
    });
    expect(bundleEnvironment(join(outDir, 'no-such-bundle'))).toEqual({});
  }, 30_000);

  // Loads the model and describes the photo through the bundle, with fetch made to fail (TensorFlow.js fetches its WebAssembly in a browser).
  const DESCRIBE = `
const [entry, input] = process.argv.slice(1);
globalThis.fetch = async (url) => { throw new Error('fetch is not for the face model: ' + url); };
const { readFileSync } = await import('node:fs');
const { loadFaceModel, describeFaces } = await import(entry);
await loadFaceModel();
process.stdout.write(JSON.stringify(await describeFaces(readFileSync(input))));
`;

  it(`describes the faces of a group photo through the bundle's files in a fresh Node, bundled for this machine (${process.arch})`, async () => {
    // Prepare
    const architecture = process.arch as FunctionArchitecture;
    const bundleDir = join(outDir, `describe-faces-${architecture}`);
    const entry = bundleFunction(join(ROOT, 'test', 'infra', 'describe-faces-entry.ts'), bundleDir, ROOT, architecture);
    const input = join(outDir, 'group.jpg');
    const width = 640;
    writeFileSync(
      input,
      await sharp(join(ROOT, 'node_modules', '@vladmandic', 'face-api', 'demo', 'sample1.jpg'))
        .resize({ width })
        .jpeg()
        .toBuffer(),
    );
    const height = (await sharp(input).metadata()).height;

    // Act
    const { stdout } = await runFile(process.execPath, ['--input-type=module', '-e', DESCRIBE, entry, input], {
      cwd: tmpdir(),
      env: { ...FRESH_NODE_ENV, ...faceModelEnvironment(bundleDir) },
    });

    // Assess
    const faces: {
      box: { x: number; y: number; width: number; height: number };
      score: number;
      descriptor: number[];
    }[] = JSON.parse(stdout);
    expect(faces.length).toBeGreaterThanOrEqual(2);
    for (const { box, score, descriptor } of faces) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(1);
      expect(descriptor).toHaveLength(128);
      expect(descriptor.every(Number.isFinite)).toBe(true);
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      expect([centre.x > 0 && centre.x < width, centre.y > 0 && centre.y < height]).toEqual([true, true]);
    }
    expect(faces[0]!.descriptor).not.toEqual(faces[1]!.descriptor);
    expect(existsSync(join(bundleDir, 'node_modules', '@tensorflow'))).toBe(false);
  }, 60_000);
});
