import { JSON_CONTENT_TYPE } from '../../http/reply';
import type { FeedFamily, FeedRequest } from '../engine/feed-family';
import { updateEntries, velopackFeed } from '../nuget/package-documents';
import { PackageTarget, packageUpdate, PackageUpdate } from '../nuget/package-updates';

/**
 * Velopack's release feed (`releases.{channel}.json`): the newest full package after the deltas
 * from the client's version when every one exists; an empty list when nothing is offered. Its
 * FileNames are bare: the client fetches them beside the feed, whatever the caller's base.
 */

export interface VelopackCheck extends FeedRequest {
  target: PackageTarget & { channel: string };
}

export const velopackReleaseFeed: FeedFamily<VelopackCheck, PackageUpdate | null> = {
  selector: ({ applicationId, target }) => ({ applicationId, channel: target.channel, platform: target.platform, arch: target.arch }),
  key: ({ target, running }) => `velopack/${target.platform ?? ''}/${target.arch ?? ''}/${target.packageId ?? ''}/${running?.orderKey ?? ''}`,
  pick: (offered, { target, running }, sources) => packageUpdate(offered, target, running, sources),
  document: (update) => ({
    contentType: JSON_CONTENT_TYPE,
    body: Buffer.from(JSON.stringify(velopackFeed(update ? updateEntries(update) : []))),
    offeredVersion: update ? update.full.file.version : null,
    platform: update?.full.file.platform,
    arch: update?.full.file.arch,
  }),
  check: ({ applicationId, target, running }, answered) => ({
    applicationId, client: 'velopack', platform: target.platform ?? answered.platform ?? 'any', arch: target.arch ?? answered.arch ?? 'any',
    channel: target.channel, runningVersion: running?.version, offeredVersion: answered.offeredVersion, installId: null,
  }),
};
