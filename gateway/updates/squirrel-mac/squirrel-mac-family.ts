import { macUpdateFiles } from '../../../shared/releases/mac-updates';
import { Arch, selectMainFile } from '../../../shared/releases/platforms';
import type { Version } from '../../../shared/store/models';
import { andThen, Eventually } from '../../http/eventually';
import type { OfferedRelease, ReleaseFile, ReleaseSelector } from '../../releases/release-catalog';
import { feedDate } from '../engine/feed-dates';
import type { FeedRequest, FeedSources } from '../engine/feed-family';
import { isNewer } from '../engine/version-newer';
import type { RunningVersion } from '../update-schemas';

/**
 * Squirrel.Mac's check (Electron's autoUpdater on macOS): the newest release offered for macOS and
 * the arch with a `.zip` it installs, when newer than the caller's (Squirrel installs whatever it is
 * given, so an equal version is no update); an install of a yanked version is given its rollback.
 * Its answer is the download itself (a pre-signed URL), so only the pick is pure here; the answer is
 * made per request (squirrel-mac-answers.ts).
 */

export interface SquirrelMacCheck extends FeedRequest {
  arch: Arch;
  channel: string;
  running: RunningVersion;
}

export interface SquirrelMacPick {
  release: OfferedRelease;
  file: ReleaseFile;
}

export const squirrelMacSelector = ({ applicationId, channel, arch }: SquirrelMacCheck): ReleaseSelector => ({ applicationId, channel, platform: 'macos', arch });

export function squirrelMacPick(offered: readonly OfferedRelease[], { arch, running }: SquirrelMacCheck, sources: Pick<FeedSources, 'rollback'>): Eventually<SquirrelMacPick | null> {
  const latest = newestZip(offered, arch);
  if (latest && isNewer(latest.release.version, running)) return latest;
  // Nothing newer: an install of a yanked version is given its rollback; otherwise up to date.
  return andThen(sources.rollback(running.version), (back) => (back ? zipOf(back, arch) : null), undefined);
}

/** Squirrel.Mac's answer (SQRLUpdate): the zip's URL, the release's name and notes, and its date. */
export interface SquirrelUpdateAnswer {
  url: string;
  name: string;
  notes: string;
  pub_date: string;
}

export function squirrelUpdateAnswer(version: Version, url: string): SquirrelUpdateAnswer {
  return { url, name: version.version, notes: version.releaseNotes ?? '', pub_date: feedDate(version) };
}

function newestZip(offered: readonly OfferedRelease[], arch: Arch): SquirrelMacPick | null {
  for (const release of offered) {
    const pick = zipOf(release, arch);
    if (pick) return pick;
  }
  return null;
}

function zipOf(release: OfferedRelease, arch: Arch): SquirrelMacPick | null {
  const selection = selectMainFile(macUpdateFiles(release.files), { platform: 'macos', arch });
  return selection.kind === 'match' ? { release, file: selection.file } : null;
}
