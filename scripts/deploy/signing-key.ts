import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The photo signing key pair; the private half stays in memory until it is in the stack's secret. */
export interface SigningKeyPair {
  publicKeyPem: string;
  privateKeyPem: string;
}

/** A new RSA key pair for CloudFront signed URLs (CloudFront takes RSA 2048). */
export function generateSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

/** Whether `privateKeyPem` is the private half of `publicKeyPem` (false for anything that is not a key). */
export function isPrivateHalfOf(privateKeyPem: string | undefined, publicKeyPem: string): boolean {
  if (!privateKeyPem?.includes('PRIVATE KEY')) return false;
  try {
    const derived = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'der' });
    return derived.equals(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }));
  } catch {
    return false;
  }
}

/** The public key file's content, or undefined when there is none. */
export function readPublicKey(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Only the public half is written: the stack reads it at synth, and it is no secret. */
export function writePublicKey(path: string, publicKeyPem: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, publicKeyPem);
}
