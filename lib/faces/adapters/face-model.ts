import type { DetectedFace } from '#lib/faces/rules/face-descriptors';

// Placeholder until the face-model branch lands (same exports); replaced by the real adapter.
export async function describeFaces(_image: Buffer): Promise<DetectedFace[]> {
  throw new Error('face model not built yet');
}
