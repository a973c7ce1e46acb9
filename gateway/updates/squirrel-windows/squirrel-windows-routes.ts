import type { z } from 'zod';
import { notFound } from '../../../shared/errors';
import { defaultChannel } from '../../../shared/releases/channels';
import { redirectResponse } from '../../../shared/contract/downloads';
import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { FeedAnswers } from '../engine/feed-answers';
import type { FeedFileLinks } from '../engine/feed-file-links';
import { squirrelWindowsChannelParams, squirrelWindowsPackageParams, squirrelWindowsParams, squirrelWindowsQuery } from '../nuget/package-schemas';
import { ReleasesCheck, releasesFeed } from './releases-family';

/** What Squirrel.Windows adds to RELEASES once installed. */
export type PackageQuery = z.output<typeof squirrelWindowsQuery>;

export const RELEASES = documentResponse('text/plain', 'RELEASES: one "SHA1 URL size" line per package (the newest full package, after the deltas from the client\'s version when every one exists), absolute URLs');

/** The feed's path, from which package links are built (the package route sits beside it). */
const squirrelFeedPath = (applicationId: string, channel: string) => `/v1/updates/${applicationId}/squirrel-windows/${encodeURIComponent(channel)}`;

/**
 * Squirrel.Windows (Electron's autoUpdater on Windows) with the customer's key in the token path form
 * `/t/{token}/v1/updates/...` (it sends no header of the app's), and the download rules. Its package
 * links are the service's, beside the feed (what it reaches by resolving a bare name against the feed
 * URL too): one download event, 302 to a pre-signed URL.
 */
export const squirrelWindowsRoutes: RouteModule<{ feedAnswers: FeedAnswers; feedFileLinks: FeedFileLinks }> = (deps, { feedAnswers, feedFileLinks }) => {
  const { channels } = deps.config;
  const squirrelChannel = (channel: string): string => {
    if (!channels.includes(channel)) throw notFound(`no channel ${channel}`);
    return channel;
  };
  const releases = (applicationId: string, channel: string, query: PackageQuery): ReleasesCheck =>
    ({ applicationId, client: 'squirrel-windows', target: { channel, platform: 'windows', arch: query.arch, packageId: query.id }, running: query.localVersion, feedPath: squirrelFeedPath(applicationId, channel) });

  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/squirrel-windows/RELEASES', operationId: 'getSquirrelWindowsReleases', guard: 'customer', noStore: true,
      summary: "Squirrel.Windows' RELEASES for the most stable channel (Electron's autoUpdater on Windows): the newest full package and the delta chain from localVersion",
      params: squirrelWindowsParams, query: squirrelWindowsQuery, hot: true,
      status: [200, 304], response: RELEASES,
      handle: ({ params, query }, ctx, customer) => feedAnswers.answer(releasesFeed, ctx, customer, releases(params.applicationId, defaultChannel(channels), query)),
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/squirrel-windows/:channel/RELEASES', operationId: 'getSquirrelWindowsChannelReleases', guard: 'customer', noStore: true,
      summary: "Squirrel.Windows' RELEASES for a channel (and the more stable ones): the newest full package and the delta chain from localVersion",
      params: squirrelWindowsChannelParams(channels), query: squirrelWindowsQuery, hot: true,
      status: [200, 304], response: RELEASES,
      handle: ({ params, query }, ctx, customer) => feedAnswers.answer(releasesFeed, ctx, customer, releases(params.applicationId, squirrelChannel(params.channel), query)),
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/squirrel-windows/:channel/:fileName', operationId: 'getSquirrelWindowsPackage', guard: 'customer', noStore: true,
      summary: 'A package RELEASES lists: one download event (GET without Range), 302 to a pre-signed URL; '
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), or one of at most 64 MiB without',
      params: squirrelWindowsPackageParams(channels),
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => {
        squirrelChannel(params.channel);
        return feedFileLinks.package(ctx, customer, params.applicationId, params.fileName);
      },
    }),
  ];
};
