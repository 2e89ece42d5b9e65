import type { EmployeeIdSource } from '#lib/hr-exports/rules/employee-id-sources';

/**
 * The file names of an export's portraits: `<employeeId>.jpg`, or `<personId>.jpg` for a person
 * without one. Only an employee ID HR imported names a file unless the gallery lets declared IDs
 * (typed at check-in) name them too; even then, a declared ID never takes the name of an ID HR
 * gave (any person's of the gallery, exported or not, earlier or later in order): that person's
 * file is named by their person ID. A typed ID is easy to get wrong or to borrow, and HR loads
 * the file as the employee the name says (docs/hr-export.md#naming-and-clashes).
 * Characters a file system or ZIP tool may refuse become `_`; names that would end
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

/** The name an employee ID wants, as compared: case does not count. */
function comparedName(employeeId: string): string {
  return `${fileStemOf(employeeId.trim())}.jpg`.toLowerCase();
}

export interface PortraitFileNamerOptions {
  /** The gallery lets a declared employee ID name its person's file (HrExportSettings.declaredIdsNameFiles). */
  declaredIdsNameFiles: boolean;
  /**
   * Every employee ID HR imported in the gallery, so that a declared ID never takes one's name,
   * whatever the order. Only needed where declared IDs name files.
   */
  hrEmployeeIds?: Iterable<string>;
}

/** A person as the namer sees it. */
export interface PersonToName {
  personId: string;
  employeeId: string | null;
  employeeIdSource: EmployeeIdSource | null;
}

/**
 * Gives names in the order persons come, each new name unlike (ignoring case) every one given
 * before, and a declared ID none HR's would want. Holds only the names given and HR's, not the
 * portraits.
 */
export class PortraitFileNamer {
  private readonly taken = new Set<string>(['manifest.csv']);
  private readonly reservedForHr: ReadonlySet<string>;
  private readonly declaredIdsNameFiles: boolean;

  constructor(options: PortraitFileNamerOptions = { declaredIdsNameFiles: false }) {
    this.declaredIdsNameFiles = options.declaredIdsNameFiles;
    this.reservedForHr = new Set([...(options.hrEmployeeIds ?? [])].filter((id) => id.trim()).map(comparedName));
  }

  nameFor(person: PersonToName): NamedPortrait {
    const employeeId = this.employeeIdNaming(person);
    if (employeeId && person.employeeIdSource === 'declared' && this.reservedForHr.has(comparedName(employeeId))) {
      // HR gave this ID to a person of the gallery: the file named so is theirs, never this one.
      const named = this.give(fileStemOf(person.personId));
      return { fileName: named.fileName, renamedFrom: `${fileStemOf(employeeId.trim())}.jpg` };
    }
    return this.give(fileStemOf(employeeId ? employeeId.trim() : person.personId));
  }

  /** The employee ID that may name the person's file, if any. */
  private employeeIdNaming(person: PersonToName): string | null {
    if (!person.employeeId?.trim() || person.employeeIdSource === null) return null;
    if (person.employeeIdSource === 'declared' && !this.declaredIdsNameFiles) return null;
    return person.employeeId;
  }

  /** `<stem>.jpg`, or with the first suffix that makes it unlike every name given. */
  private give(stem: string): NamedPortrait {
    const wanted = `${stem}.jpg`;
    let fileName = wanted;
    for (let suffix = 2; this.taken.has(fileName.toLowerCase()); suffix += 1) fileName = withSuffix(stem, suffix);
    this.taken.add(fileName.toLowerCase());
    return fileName === wanted ? { fileName } : { fileName, renamedFrom: wanted };
  }
}
