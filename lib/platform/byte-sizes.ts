/**
 * The largest object a function reads whole from the media bucket: what its memory affords. A
 * 102 MP medium-format JPEG is about 21 MB, a 24 MP one about 5 MB (docs/benchmarks.md, section
 * 7); anything bigger is no camera's photo, and reading it would exhaust the function's memory.
 */
export const MAX_WHOLE_OBJECT_BYTES = 64 * 1024 * 1024;

/** A size in mebibytes for messages: 3145728 → "3 MiB". */
export function mebibytes(bytes: number): string {
  return `${bytes / (1024 * 1024)} MiB`;
}
