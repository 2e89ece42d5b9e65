/*
 * The capture time an uploader may set as an object's metadata: apart from capture-facts.ts, so
 * that the upload functions check it without carrying the EXIF reader into their cold start.
 */

/** ISO 8601 with milliseconds, as the upload command writes `captured-at`. */
export const CAPTURE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The capture time an uploader set as the object's `captured-at` metadata; null when it is
 * missing, not in the format of CaptureFacts.capturedAt, or no date (`2026-02-30T…`).
 */
export function captureTimeOfMetadata(metadata: Record<string, string>): string | null {
  const value = metadata['captured-at'];
  if (!value || !CAPTURE_TIME.test(value)) return null;
  const time = new Date(value);
  return !Number.isNaN(time.getTime()) && time.toISOString() === value ? value : null;
}

/** Whether `value` is a capture time an uploader may set (captureTimeOfMetadata takes it). */
export function isCaptureTime(value: string): boolean {
  return captureTimeOfMetadata({ 'captured-at': value }) !== null;
}
