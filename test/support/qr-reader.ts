import { readFileSync } from 'node:fs';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

// ZXing's reader with its WebAssembly from the installed package, never from its default CDN.
const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
prepareZXingModule({
  overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
});

/** The texts of the QR codes a PNG shows (up to 16), as a camera card reader would find them. */
export async function qrTextsInPng(png: Uint8Array): Promise<string[]> {
  const found = await readBarcodes(png, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 16 });
  return found.filter((result) => result.isValid).map((result) => result.text);
}
