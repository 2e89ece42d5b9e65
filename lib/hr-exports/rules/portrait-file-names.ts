/**
 * The file names of an export's portraits: `<employeeId>.jpg`, or `<personId>.jpg` for a person
 * without one. Characters a file system or ZIP tool may refuse become `_`; names that would end
 * up equal on a file system that ignores case get a suffix (`-2`, `-3`, …), and each renaming is
 * reported, so that the HR system's people can tell whose file is whose from the manifest. A
 * suffix never takes a name past 100 characters before `.jpg`: the stem is cut to make room.
 */

const MAX_STEM_LENGTH = 100;

/** The stem an identifier gives: letters, digits, `.`, `_` and `-` only, no leading dot, at most 100 characters. */
export function fileStemOf(identifier: string): string {
  return identifier
    .normalize('NFC')
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, MAX_STEM_LENGTH);
}

export interface NamedPortrait {
  fileName: string;
  /** The name it would have had, where a clash renamed it. */
  renamedFrom?: string;
}

/** `<stem>-<suffix>.jpg`, the stem cut so that the whole stays within the 100 characters. */
function withSuffix(stem: string, suffix: number): string {
  const ending = `-${suffix}`;
  return `${stem.slice(0, MAX_STEM_LENGTH - ending.length)}${ending}.jpg`;
}

/**
 * Gives names in the order persons come, each new name unlike (ignoring case) every one given
 * before. Holds only the names given, not the portraits.
 */
export class PortraitFileNamer {
  private readonly taken = new Set<string>(['manifest.csv']);

  nameFor(person: { personId: string; employeeId: string | null }): NamedPortrait {
    const stem = fileStemOf(person.employeeId?.trim() || person.personId) || fileStemOf(person.personId);
    const wanted = `${stem}.jpg`;
    let fileName = wanted;
    for (let suffix = 2; this.taken.has(fileName.toLowerCase()); suffix += 1) fileName = withSuffix(stem, suffix);
    this.taken.add(fileName.toLowerCase());
    return fileName === wanted ? { fileName } : { fileName, renamedFrom: wanted };
  }
}
