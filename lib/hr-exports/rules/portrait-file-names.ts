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
export function comparedNameOf(employeeId: string): string {
  return `${fileStemOf(employeeId.trim())}.jpg`.toLowerCase();
}

/** The manifest's name, never a portrait's. */
const MANIFEST_NAME = 'manifest.csv';

/**
 * Where a namer keeps the names it gave and HR's IDs, as compared (lower case): in memory for a
 * small set, or in the table for an export of any size (lib/hr-exports/store/file-name-claims.ts),
 * so that the build's memory does not grow with the gallery.
 */
export interface FileNameLedger {
  /** Takes a name unless it was given already; true when this call took it. */
  take(comparedName: string): Promise<boolean>;
  /** Whether an employee ID HR imported in the gallery wants this name. */
  isReservedForHr(comparedName: string): Promise<boolean>;
}

/** A ledger in memory, with HR's employee IDs known up front. */
export function memoryFileNameLedger(hrEmployeeIds: Iterable<string> = []): FileNameLedger {
  const taken = new Set<string>();
  const reservedForHr = new Set([...hrEmployeeIds].filter((id) => id.trim()).map(comparedNameOf));
  return {
    take: (comparedName) => {
      if (taken.has(comparedName)) return Promise.resolve(false);
      taken.add(comparedName);
      return Promise.resolve(true);
    },
    isReservedForHr: (comparedName) => Promise.resolve(reservedForHr.has(comparedName)),
  };
}

export interface PortraitFileNamerOptions {
  /** The gallery lets a declared employee ID name its person's file (HrExportSettings.declaredIdsNameFiles). */
  declaredIdsNameFiles: boolean;
  /**
   * Every employee ID HR imported in the gallery, so that a declared ID never takes one's name,
   * whatever the order. Only needed where declared IDs name files; a `ledger` that knows them replaces it.
   */
  hrEmployeeIds?: Iterable<string>;
  /** Where the names given and HR's are kept; in memory (with `hrEmployeeIds`) unless given. */
  ledger?: FileNameLedger;
}

/** A person as the namer sees it. */
export interface PersonToName {
  personId: string;
  employeeId: string | null;
  employeeIdSource: EmployeeIdSource | null;
}

/**
 * Gives names in the order persons come, each new name unlike (ignoring case) every one given
 * before, and a declared ID none HR's would want. Keeps only names (in its ledger), not the
 * portraits.
 */
export class PortraitFileNamer {
  private readonly ledger: FileNameLedger;
  private readonly declaredIdsNameFiles: boolean;

  constructor(options: PortraitFileNamerOptions = { declaredIdsNameFiles: false }) {
    this.declaredIdsNameFiles = options.declaredIdsNameFiles;
    this.ledger = options.ledger ?? memoryFileNameLedger(options.hrEmployeeIds);
  }

  async nameFor(person: PersonToName): Promise<NamedPortrait> {
    const employeeId = this.employeeIdNaming(person);
    if (
      employeeId &&
      person.employeeIdSource === 'declared' &&
      (await this.ledger.isReservedForHr(comparedNameOf(employeeId)))
    ) {
      // HR gave this ID to a person of the gallery: the file named so is theirs, never this one.
      const named = await this.give(fileStemOf(person.personId));
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
  private async give(stem: string): Promise<NamedPortrait> {
    const wanted = `${stem}.jpg`;
    let fileName = wanted;
    for (
      let suffix = 2;
      fileName.toLowerCase() === MANIFEST_NAME || !(await this.ledger.take(fileName.toLowerCase()));
      suffix += 1
    )
      fileName = withSuffix(stem, suffix);
    return fileName === wanted ? { fileName } : { fileName, renamedFrom: wanted };
  }
}
