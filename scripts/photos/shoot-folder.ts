import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { INBOX_PATH_DEPTH, isValidInboxPath } from '#lib/platform/media-keys';

/** A JPEG of the shoot folder and where it goes below the gallery's inbox. */
export interface ShootFile {
  localPath: string;
  /** The path below the inbox: the file's path below the folder, made a valid inbox path. */
  inboxPath: string;
  size: number;
}

/** A file that is not uploaded, and why. */
export interface SkippedFile {
  relativePath: string;
  reason: 'not_jpeg' | 'invalid_name' | 'name_clash';
}

const JPEG_EXTENSION = /\.jpe?g$/i;
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

/**
 * Every JPEG below `folder` (a .jpg/.jpeg name and JPEG bytes), in path order. Hidden folders
 * (`.git`, `.Trashes`) and symbolic links to folders are not entered; macOS's `._IMG_0001.JPG`
 * companions fail the byte check and are skipped like any other file that is not a JPEG.
 */
export async function listShootFiles(folder: string): Promise<{ files: ShootFile[]; skipped: SkippedFile[] }> {
  const files: ShootFile[] = [];
  const skipped: SkippedFile[] = [];
  const taken = new Set<string>();
  for (const localPath of await walk(folder)) {
    const relativePath = relative(folder, localPath).split(sep).join('/');
    const inboxPath = toInboxPath(relativePath);
    if (!JPEG_EXTENSION.test(localPath) || !(await startsLikeJpeg(localPath))) {
      skipped.push({ relativePath, reason: 'not_jpeg' });
    } else if (inboxPath === undefined) {
      skipped.push({ relativePath, reason: 'invalid_name' });
    } else if (taken.has(inboxPath)) {
      skipped.push({ relativePath, reason: 'name_clash' });
    } else {
      taken.add(inboxPath);
      files.push({ localPath, inboxPath, size: (await stat(localPath)).size });
    }
  }
  return { files, skipped };
}

async function walk(folder: string): Promise<string[]> {
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
  const paths: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) paths.push(...(await walk(path)));
    else if (entry.isFile() || (entry.isSymbolicLink() && (await stat(path).catch(() => undefined))?.isFile()))
      paths.push(path);
  }
  return paths;
}

async function startsLikeJpeg(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { bytesRead, buffer } = await file.read(Buffer.alloc(3), 0, 3, 0);
    return bytesRead === 3 && JPEG_MAGIC.every((byte, index) => buffer[index] === byte);
  } finally {
    await file.close();
  }
}

/**
 * The inbox path for a file's path below the shoot folder: characters an inbox name cannot have
 * become `_`, and folders deeper than INBOX_PATH_DEPTH are joined with `-` into the deepest one
 * allowed (`a/b/c/d/IMG.jpg` → `a/b/c-d/IMG.jpg`). Undefined when no valid path comes of it.
 */
export function toInboxPath(relativePath: string): string | undefined {
  const segments = relativePath.split('/').map(toInboxName);
  const folders = segments.slice(0, -1);
  const kept =
    folders.length > INBOX_PATH_DEPTH
      ? [...folders.slice(0, INBOX_PATH_DEPTH - 1), folders.slice(INBOX_PATH_DEPTH - 1).join('-')]
      : folders;
  const path = [...kept, segments.at(-1)!].join('/');
  return isValidInboxPath(path) ? path : undefined;
}

function toInboxName(name: string): string {
  return name
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[^A-Za-z0-9]+/, '');
}
