import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A processor architecture of Lambda, in Node's naming (`process.arch`). */
export type FunctionArchitecture = 'arm64' | 'x64';

/**
 * Packages that load a native binary, which esbuild cannot bundle: the bundles leave them
 * external and carry them installed, with the packages holding the binary for Linux (glibc)
 * on the function's architecture.
 */
export const NATIVE_PACKAGES: Readonly<Record<string, (architecture: FunctionArchitecture) => string[]>> = {
  sharp: (architecture) => [`@img/sharp-linux-${architecture}`, `@img/sharp-libvips-linux-${architecture}`],
};

/**
 * Where installed packages for Linux on `architecture` are looked for: the install that the
 * root package's postinstall makes for Lambda's arm64 (infra/native-modules/linux-arm64, `npm ci
 * --os=linux --cpu=arm64`), then the project's own node_modules, which hold the binaries of the
 * machine it runs on.
 */
export function nativeModuleDirectories(root: string, architecture: FunctionArchitecture): string[] {
  return [join(root, 'infra', 'native-modules', `linux-${architecture}`, 'node_modules'), join(root, 'node_modules')];
}

interface PackageManifest {
  version: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  dependencies?: Record<string, string>;
}

const manifestOf = (directory: string): PackageManifest =>
  JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as PackageManifest;

function isForLinux(directory: string, architecture: FunctionArchitecture): boolean {
  if (!existsSync(join(directory, 'package.json'))) return false;
  const { os, cpu, libc } = manifestOf(directory);
  return !!os?.includes('linux') && !!cpu?.includes(architecture) && (libc === undefined || libc.includes('glibc'));
}

/**
 * Copies the installed package `name`, the packages it depends on and its binary packages for
 * Linux on `architecture` into `outdir/node_modules`, where Node finds them from the bundle's
 * files. Throws when no installation holds binaries for that architecture.
 */
export function shipNativePackage(
  name: string,
  outdir: string,
  architecture: FunctionArchitecture,
  root: string,
): void {
  const binaries = NATIVE_PACKAGES[name]?.(architecture);
  if (!binaries) throw new Error(`${name} is not a native package of NATIVE_PACKAGES`);
  const candidates = nativeModuleDirectories(root, architecture);
  const source = candidates.find((directory) =>
    binaries.every((binary) => isForLinux(join(directory, binary), architecture)),
  );
  if (!source) {
    throw new Error(
      `No ${binaries.join(' and ')} for Linux ${architecture} in ${candidates.join(' or ')}: run npm ci, whose postinstall installs them`,
    );
  }
  const target = join(outdir, 'node_modules');
  const copied = new Set<string>();
  // Node looks in the package's own node_modules first, then in the top level.
  const copy = (packageName: string, from: string, to: string) => {
    if (copied.has(to)) return;
    copied.add(to);
    cpSync(from, to, { recursive: true, dereference: true });
    for (const dependency of Object.keys(manifestOf(from).dependencies ?? {})) {
      const nested = join(from, 'node_modules', dependency);
      if (existsSync(nested)) copy(dependency, nested, join(to, 'node_modules', dependency));
      else if (existsSync(join(source, dependency)))
        copy(dependency, join(source, dependency), join(target, dependency));
      else throw new Error(`${packageName} needs ${dependency}, which is not installed in ${source}`);
    }
  };
  for (const packageName of [name, ...binaries])
    copy(packageName, join(source, packageName), join(target, packageName));
}
