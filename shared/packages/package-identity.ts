import type { PackageInfo } from '../store/models';

/** A deb822 field's value by its case-insensitive name. */
export function controlField(fields: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  const lower = name.toLowerCase();
  return fields.find(([field]) => field.toLowerCase() === lower)?.[1];
}

/** The package's name, version and arch as it states them. */
export function packageIdentity(info: PackageInfo): { name: string; version: string; arch: string } {
  if (info.format === 'rpm') {
    return { name: info.name, version: `${info.epoch ? `${info.epoch}:` : ''}${info.version}-${info.release}`, arch: info.arch };
  }
  return { name: controlField(info.fields, 'Package') ?? '', version: controlField(info.fields, 'Version') ?? '', arch: controlField(info.fields, 'Architecture') ?? '' };
}

