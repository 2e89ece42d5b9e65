import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { LabelledPhoto } from '#lib/faces/calibration';

const PHOTO_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png']);

export interface IdentityFolders {
  /** Each sub-folder's photos, the sub-folder's name as identity, in order of file name. */
  photos: LabelledPhoto[];
  /** Files next to the sub-folders, or in them but not JPEG or PNG, relative to the folder. */
  ignored: string[];
}

/**
 * Reads a calibration folder: one sub-folder per consenting person, holding that person's
 * photos. A person's first photo by name is their reference in the fill-in measure.
 */
export function readIdentityFolders(folder: string): IdentityFolders {
  const photos: LabelledPhoto[] = [];
  const ignored: string[] = [];
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, 'en');
  for (const entry of readdirSync(folder, { withFileTypes: true }).sort(byName)) {
    if (!entry.isDirectory()) {
      ignored.push(entry.name);
      continue;
    }
    for (const file of readdirSync(join(folder, entry.name), { withFileTypes: true }).sort(byName)) {
      const path = join(entry.name, file.name);
      if (file.isFile() && PHOTO_EXTENSIONS.has(extname(file.name).toLowerCase()))
        photos.push({ identity: entry.name, source: path, image: readFileSync(join(folder, path)) });
      else ignored.push(path);
    }
  }
  return { photos, ignored };
}
