import type { PlannedFile, PlanProblem, PublishPlan } from './build-files';

/**
 * How a plan stands against what the service already holds of its version (an earlier run, an
 * interrupted one): identical files are not sent again, a different file under a name or in a MAIN
 * slot the version holds is refused, and so is a version customers already see that lacks files
 * (adding them would change a published release). Used by `bds publish` and the console alike.
 */

/** What the comparison reads of a stored version (the version resource's fields). */
export interface HeldVersion {
  version: string;
  channel: string;
  status: string;
  files: ReadonlyArray<{ fileName: string; fileType: string; platform: string; arch: string; status: string; checksum: string | null }>;
}

export interface Standing {
  toSend: PlannedFile[];
  alreadyThere: PlannedFile[];
  problems: PlanProblem[];
}

export interface StandingOptions {
  plan: PublishPlan;
  held: HeldVersion | undefined;
  /** The channel asked for, if any. */
  channel?: string;
  /** A planned file's checksum as the service writes it: `sha256:<hex>`. */
  checksumOf(file: PlannedFile): Promise<string>;
  /** How the file is named to the person: its path on disk, or in the dropped folder. */
  shownPath(file: PlannedFile): string;
}

export async function standingOf({ plan, held, channel, checksumOf, shownPath }: StandingOptions): Promise<Standing> {
  if (!held) return { toSend: plan.files, alreadyThere: [], problems: [] };
  const problems: PlanProblem[] = [];
  if (channel && held.channel !== channel) {
    problems.push({ path: '.', message: `version ${held.version} exists in channel ${held.channel}, not ${channel}: keep its channel, or publish under another version` });
  }
  const live = held.files.filter((file) => file.status !== 'failed');
  const toSend: PlannedFile[] = [];
  const alreadyThere: PlannedFile[] = [];
  for (const file of plan.files) {
    const sameName = live.find((stored) => stored.fileName === file.fileName);
    const sameSlot = file.fileType === 'MAIN' ? live.find((stored) => stored.fileType === 'MAIN' && stored.platform === file.platform && stored.arch === file.arch && stored.fileName !== file.fileName) : undefined;
    if (sameSlot) {
      problems.push({ path: file.path ?? file.fileName, message: `${shownPath(file)} would be the MAIN file of ${file.platform}/${file.arch}, which ${sameSlot.fileName} already is in version ${held.version}: a version holds one; publish under another version, or delete the draft` });
      continue;
    }
    if (!sameName) {
      toSend.push(file);
      continue;
    }
    if (sameName.status === 'available') {
      const checksum = await checksumOf(file);
      if (sameName.checksum === checksum) alreadyThere.push(file);
      else problems.push({ path: file.path ?? file.fileName, message: `${shownPath(file)} differs from ${sameName.fileName} already in version ${held.version} (${sameName.checksum}, the file has ${checksum}): a published file never changes; publish under another version` });
      continue;
    }
    // Pending: an interrupted run's upload, which the resume record takes up.
    toSend.push(file);
  }
  if (held.status !== 'draft' && toSend.length > 0 && problems.length === 0) {
    problems.push({ path: '.', message: `version ${held.version} is ${held.status} without ${toSend.map((file) => file.fileName).join(', ')}: adding files would change a release customers already have; publish under another version` });
  }
  return { toSend, alreadyThere, problems };
}
