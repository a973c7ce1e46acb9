import { isBlockmapName } from '../releases/blockmaps';
import { isZipArchive } from '../releases/file-names';
import type { Arch, Platform } from '../releases/platforms';
import { baseName, type MadeBy, type PlannedFile, type PlanProblem, type PublishPlan } from './build-files';
import { assignMainSlots, blockmapFiles, installerKind, type RankedFile } from './targets';

/**
 * Artifacts a packaging tool hands over with their platform and arch (electron-forge's make
 * results), typed as the recognisers type electron-builder's: the installer of a target is its
 * MAIN file, the mac zip the UPDATE file update clients install, other formats OTHER files beside
 * the MAIN one, blockmaps attached to the file they describe.
 */
export interface MadeArtifact {
  /** Path relative to the folder the plan is sent from. */
  path: string;
  size: number;
  platform: Platform;
  arch: Arch;
}

export function planMadeArtifacts(artifacts: readonly MadeArtifact[], tool: MadeBy, fixForMissingZip: string): { files: PlannedFile[]; problems: PlanProblem[] } {
  const ranked: RankedFile[] = [];
  const rest: MadeArtifact[] = [];
  for (const artifact of artifacts) {
    const fileName = baseName(artifact.path);
    const common = { path: artifact.path, fileName, size: artifact.size, platform: artifact.platform, arch: artifact.arch, tool };
    if (isBlockmapName(fileName)) rest.push(artifact);
    else if (isZipArchive(fileName) && artifact.platform === 'macos') ranked.push({ ...common, fileType: 'UPDATE', purpose: 'macOS update archive (what update clients install)' });
    else {
      const kind = installerKind(fileName);
      if (kind) ranked.push({ ...common, fileType: 'MAIN', purpose: kind.purpose, mainRank: kind.rank });
      else ranked.push({ ...common, fileType: 'OTHER', purpose: isZipArchive(fileName) ? 'zip archive of the application' : 'build artifact' });
    }
  }
  const problems: PlanProblem[] = [];
  for (const file of ranked.filter((candidate) => candidate.platform === 'macos' && candidate.fileType === 'MAIN')) {
    if (!ranked.some((candidate) => candidate.fileType === 'UPDATE' && candidate.arch === file.arch)) {
      problems.push({ path: file.path ?? file.fileName, message: `${file.path}: a macOS build with no .zip for update clients (electron-updater and Squirrel.Mac install only a zip): ${fixForMissingZip}` });
    }
  }
  const files = assignMainSlots(ranked);
  files.push(...blockmapFiles(rest, files, tool).files);
  return { files, problems };
}

/** Plans made of parts (a recogniser's and made artifacts') as one release: one version, unique names, attached files last. */
export function joinPlans(version: string, parts: ReadonlyArray<Pick<PublishPlan, 'tools' | 'files' | 'skipped' | 'problems'> & { versionFields?: PublishPlan['versionFields'] }>): PublishPlan {
  const files = parts.flatMap((part) => part.files);
  const problems = parts.flatMap((part) => part.problems);
  const names = new Map<string, string>();
  for (const file of files) {
    const earlier = names.get(file.fileName);
    if (earlier !== undefined) problems.push({ path: file.path ?? file.fileName, message: `${file.path ?? file.fileName} and ${earlier} have the same name ${file.fileName}; a version holds one file of a name: give the makers different artifact names` });
    else names.set(file.fileName, file.path ?? file.fileName);
  }
  return {
    tools: [...new Set(parts.flatMap((part) => part.tools))],
    version,
    versionFields: Object.assign({}, ...parts.map((part) => part.versionFields ?? {})) as PublishPlan['versionFields'],
    files: [...files.filter((file) => !file.attachedTo), ...files.filter((file) => file.attachedTo)],
    skipped: parts.flatMap((part) => part.skipped),
    problems,
  };
}
