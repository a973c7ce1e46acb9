import type { FileRecord, Version, VersionWithFiles } from './models';

/** Each version with its files, in the order `files` holds them; files of other versions are left out. */
export function withFiles(versions: Version[], files: FileRecord[]): VersionWithFiles[] {
  const byVersion = new Map<string, FileRecord[]>(versions.map((v) => [v.version, []]));
  for (const file of files) byVersion.get(file.version)?.push(file);
  return versions.map((v) => ({ ...v, files: byVersion.get(v.version) as FileRecord[] }));
}
