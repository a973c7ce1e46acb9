import { notFound } from '../../../shared/errors';
import type { UpdateClientFamily } from '../../../shared/store/models';
import { andThen, Eventually } from '../../http/eventually';
import type { FeedDocument, FeedFamily, FeedRequest } from '../engine/feed-family';
import { packageUrl, ReleasesEntry, releasesEntry, releasesText, updateEntries } from '../nuget/package-documents';
import { installedPackage, PackageTarget, packageUpdate, PackageUpdate } from '../nuget/package-updates';

/**
 * RELEASES, Squirrel.Windows' feed (Electron's autoUpdater on Windows) and the legacy file of
 * Velopack: the newest full package after the deltas from the client's version when every one
 * exists; with nothing offered, the client's own version's package (an empty RELEASES is a failure
 * to Squirrel), else 404.
 */

export interface ReleasesCheck extends FeedRequest {
  client: Extract<UpdateClientFamily, 'squirrel-windows' | 'velopack'>;
  /** Its channel resolved (the most stable when the path names none). */
  target: PackageTarget & { channel: string };
  /** The feed's path: package links sit beside it. */
  feedPath: string;
}

/** What RELEASES lists: the update, or the client's own package, or nothing. */
export type ReleasesPick = { kind: 'update'; update: PackageUpdate } | { kind: 'installed'; entry: ReleasesEntry } | null;

const RELEASES_CONTENT_TYPE = 'text/plain; charset=utf-8';

export const releasesFeed: FeedFamily<ReleasesCheck, ReleasesPick> = {
  selector: ({ applicationId, target }) => ({ applicationId, channel: target.channel, platform: target.platform, arch: target.arch }),
  key: ({ client, target, running, feedPath }, links) =>
    `releases/${client}/${target.platform ?? ''}/${target.arch ?? ''}/${target.packageId ?? ''}/${running?.orderKey ?? ''}/${links.base}${feedPath}`,
  pick: (offered, { applicationId, target, running }, sources): Eventually<ReleasesPick> =>
    andThen(packageUpdate(offered, target, running, sources), (update): Eventually<ReleasesPick> => {
      if (update) return { kind: 'update', update };
      if (target.packageId === undefined || running === undefined) return null;
      return andThen(installedPackage(sources.grant, applicationId, target.packageId, running.version), (installed): ReleasesPick => {
        const entry = installed && releasesEntry(installed.file);
        return entry ? { kind: 'installed', entry } : null;
      }, undefined);
    }, undefined),
  document: (pick, links, { applicationId, target, feedPath }): FeedDocument => {
    if (!pick) throw notFound(noBuild(applicationId, target));
    const urlOf = (fileName: string) => packageUrl(`${links.base}${feedPath}`, fileName);
    if (pick.kind === 'installed') {
      // Granted beside the offered selection (the caller's tier decides it): answered, never kept.
      return { contentType: RELEASES_CONTENT_TYPE, body: Buffer.from(releasesText([pick.entry], urlOf)), offeredVersion: null, perCaller: true };
    }
    const { update } = pick;
    return {
      contentType: RELEASES_CONTENT_TYPE, body: Buffer.from(releasesText(updateEntries(update).map((item) => item.file), urlOf)),
      offeredVersion: update.full.file.version, platform: update.full.file.platform, arch: update.full.file.arch,
    };
  },
  check: ({ applicationId, client, target, running }, answered) => ({
    applicationId, client, platform: target.platform ?? answered.platform ?? 'any', arch: target.arch ?? answered.arch ?? 'any',
    channel: target.channel, runningVersion: running?.version, offeredVersion: answered.offeredVersion, installId: null,
  }),
};

export function noBuild(applicationId: string, target: PackageTarget): string {
  const where = [target.platform && `platform ${target.platform}`, target.arch && `arch ${target.arch}`, target.packageId && `package ${target.packageId}`].filter(Boolean).join(', ');
  return `no package of ${applicationId} in channel ${target.channel}${where ? ` for ${where}` : ''}`;
}
