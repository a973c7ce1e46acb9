import { guessFileTarget } from '../releases/artifact-names';
import { isBlockmapName } from '../releases/blockmaps';
import type { Arch, Platform } from '../releases/platforms';
import { baseName, PlannedFile } from './build-files';

/**
 * Which of a target's installers is its MAIN file (the one `latest` and the update feeds answer);
 * the others are offered beside it as OTHER files, since a version holds one MAIN file per
 * platform and arch. Lower rank wins.
 */
export interface RankedFile extends PlannedFile {
  mainRank?: number;
}

const KIND_PURPOSES: ReadonlyArray<[RegExp, string, number]> = [
  [/-setup\.exe$|setup.*\.exe$|\.exe$/i, 'Windows installer', 0],
  [/\.msi$/i, 'Windows installer (MSI)', 1],
  [/\.(appx|msix)$/i, 'Windows package', 2],
  [/\.dmg$/i, 'macOS disk image', 0],
  [/\.pkg$/i, 'macOS installer package', 1],
  [/\.appimage$/i, 'Linux AppImage', 0],
  [/\.deb$/i, 'Linux package (deb)', 1],
  [/\.rpm$/i, 'Linux package (rpm)', 2],
  [/\.snap$/i, 'Linux package (snap)', 3],
  [/\.(pacman|flatpak)$/i, 'Linux package', 4],
];

/** What an installer or package is for, in words, and its rank for the MAIN slot; null for a name that is none. */
export function installerKind(fileName: string): { purpose: string; rank: number } | null {
  const found = KIND_PURPOSES.find(([pattern]) => pattern.test(fileName));
  return found ? { purpose: found[1], rank: found[2] } : null;
}

/** A file's platform and arch from its name, as electron-builder and Tauri write them (x64 when the name says none). */
export function targetOfName(fileName: string): { platform: Platform; arch: Arch } {
  const { platform, arch } = guessFileTarget(fileName);
  return { platform, arch };
}

const PLATFORM_WORDS: Record<Platform, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux', any: 'any system' };
export const platformWord = (platform: Platform): string => PLATFORM_WORDS[platform];

/**
 * The MAIN slot of each target to the best-ranked candidate; every other candidate of the target
 * becomes an OTHER file that names it. Blockmaps and signatures keep their types.
 */
export function assignMainSlots(files: RankedFile[]): PlannedFile[] {
  const winners = new Map<string, RankedFile>();
  for (const file of files) {
    if (file.fileType !== 'MAIN') continue;
    const key = `${file.platform}/${file.arch}`;
    const best = winners.get(key);
    if (!best || (file.mainRank ?? 0) < (best.mainRank ?? 0)) winners.set(key, file);
  }
  return files.map(({ mainRank: _rank, ...file }) => {
    if (file.fileType !== 'MAIN') return file;
    const winner = winners.get(`${file.platform}/${file.arch}`);
    if (!winner || winner.fileName === file.fileName) return file;
    return { ...file, fileType: 'OTHER', purpose: `${file.purpose}, offered beside ${winner.fileName}` };
  });
}

/** Blockmaps of files in the plan, attached to them; a blockmap of a file not in the plan is left aside. */
export function blockmapFiles(paths: { path: string; size: number }[], planned: readonly PlannedFile[], tool: PlannedFile['tool']): { files: PlannedFile[]; orphans: string[] } {
  const files: PlannedFile[] = [];
  const orphans: string[] = [];
  for (const { path, size } of paths) {
    const name = baseName(path);
    if (!isBlockmapName(name)) continue;
    const described = planned.find((file) => file.fileName === name.slice(0, -'.blockmap'.length));
    if (!described) {
      orphans.push(path);
      continue;
    }
    files.push({ path, fileName: name, size, platform: described.platform, arch: described.arch, fileType: 'BLOCKMAP', purpose: `blockmap of ${described.fileName} (differential updates)`, tool, attachedTo: described.fileName });
  }
  return { files, orphans };
}
