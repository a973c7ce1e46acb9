import { notFound } from '../../../shared/errors';
import { defaultChannel } from '../../../shared/releases/channels';
import { redirectResponse } from '../../../shared/contract/downloads';
import type { VelopackChannel } from '../../../shared/releases/update-client-names';
import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { FeedAnswers } from '../engine/feed-answers';
import type { FeedFileLinks } from '../engine/feed-file-links';
import { squirrelWindowsQuery, velopackChannelParams, velopackFeedQuery, velopackPackageParams, velopackParams } from '../nuget/package-schemas';
import type { PackageTarget } from '../nuget/package-updates';
import { releasesFeed } from '../squirrel-windows/releases-family';
import { RELEASES, PackageQuery } from '../squirrel-windows/squirrel-windows-routes';
import { velopackReleaseFeed } from './velopack-family';

const VELOPACK_FEED = documentResponse('application/json', "Velopack's VelopackAssetFeed: {Assets: [{PackageId, Version, Type, FileName, SHA1, SHA256, Size, NotesMarkdown, NotesHtml}]}; no build is an empty list");

const VELOPACK_PATH = (applicationId: string) => `/v1/updates/${applicationId}/velopack`;

/**
 * Velopack's feed with the customer's key in the token path form `/t/{token}/v1/updates/...` (it
 * sends no header of the app's), and the download rules: the release feed, the legacy RELEASES
 * files, and the packages beside them (one download event, 302 to a pre-signed URL).
 */
export const velopackRoutes: RouteModule<{ feedAnswers: FeedAnswers; feedFileLinks: FeedFileLinks }> = (deps, { feedAnswers, feedFileLinks }) => {
  const { channels } = deps.config;
  const stable = defaultChannel(channels);
  const velopackChannel = (request: { name: string; channel: VelopackChannel | null }): VelopackChannel => {
    if (!request.channel) throw notFound(`no Velopack channel ${request.name}: it is win, osx, linux, one of the channels, or <channel>-<win|osx|linux>`);
    return request.channel;
  };
  const legacy = (applicationId: string, target: PackageTarget & { channel: string }, query: PackageQuery) =>
    ({ applicationId, client: 'velopack' as const, target, running: query.localVersion, feedPath: VELOPACK_PATH(applicationId) });

  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/velopack/releases.:channel([^/]+).json', operationId: 'getVelopackReleaseFeed', guard: 'customer', noStore: true,
      summary: "Velopack's release feed for a channel (win, osx, linux, a channel, or <channel>-<os>): the newest full package and the delta chain from localVersion",
      params: velopackChannelParams(channels), query: velopackFeedQuery, hot: true,
      status: [200, 304], response: VELOPACK_FEED,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        return feedAnswers.answer(velopackReleaseFeed, ctx, customer,
          { applicationId: params.applicationId, target: { channel, platform: platform ?? undefined, packageId: query.id }, running: query.localVersion });
      },
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/velopack/RELEASES', operationId: 'getVelopackReleases', guard: 'customer', noStore: true,
      summary: "The legacy RELEASES of Velopack's win channel (what Squirrel.Windows apps moving to Velopack read)",
      params: velopackParams, query: squirrelWindowsQuery, hot: true,
      status: [200, 304], response: RELEASES,
      handle: ({ params, query }, ctx, customer) =>
        feedAnswers.answer(releasesFeed, ctx, customer, legacy(params.applicationId, { channel: stable, platform: 'windows', arch: query.arch, packageId: query.id }, query)),
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/velopack/RELEASES-:channel', operationId: 'getVelopackChannelReleases', guard: 'customer', noStore: true,
      summary: 'The legacy RELEASES-{channel} of a Velopack channel (osx, linux, a channel, or <channel>-<os>)',
      params: velopackChannelParams(channels), query: squirrelWindowsQuery, hot: true,
      status: [200, 304], response: RELEASES,
      handle: ({ params, query }, ctx, customer) => {
        const { channel, platform } = velopackChannel(params.channel);
        return feedAnswers.answer(releasesFeed, ctx, customer,
          legacy(params.applicationId, { channel, platform: platform ?? undefined, arch: query.arch, packageId: query.id }, query));
      },
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/velopack/:fileName', operationId: 'getVelopackPackage', guard: 'customer', noStore: true,
      summary: "A package Velopack's feed lists, at {feed URL}/{FileName}: one download event (GET without Range), 302 to a pre-signed URL; "
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), or one of at most 64 MiB without',
      params: velopackPackageParams,
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => feedFileLinks.package(ctx, customer, params.applicationId, params.fileName),
    }),
  ];
};
