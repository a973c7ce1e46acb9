import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { FeedAnswers } from '../engine/feed-answers';
import { sparkleAppcastParams, sparkleAppcastQuery } from '../update-schemas';
import { sparkleAppcastFeed } from './sparkle-family';

/** Sparkle's User-Agent: `<App>/<CFBundleVersion> Sparkle/<its version>`; the app's bundle version is what it runs. */
const SPARKLE_USER_AGENT = /^[^/\s]+\/(\S{1,64}) Sparkle\//;

const APPCAST = documentResponse('application/rss+xml',
  "Sparkle's appcast (RSS 2.0, Sparkle's namespace): one item per offered release, newest first, with its signed archive and deltas; "
  + 'no item when nothing is offered (Sparkle reads it as up to date)');

/**
 * Sparkle's appcast (and WinSparkle's and NetSparkle's, `?os=windows`), with the customer's key as
 * for every feed: Sparkle sends its `httpHeaders` with the appcast and the downloads, so the
 * enclosures link to the service's file route (one download event, 302 to a pre-signed URL), under
 * the caller's path token when it came through one. Sparkle takes any status from 400 up as a failed
 * check, and a 2xx it cannot parse as one too: "nothing to offer" is an appcast without items.
 */
export const sparkleRoutes: RouteModule<{ feedAnswers: FeedAnswers }> = (deps, { feedAnswers }) => {
  const { channels } = deps.config;
  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/sparkle/:channel/appcast.xml', operationId: 'getSparkleAppcast', guard: 'customer', noStore: true,
      summary: "Sparkle's appcast (SUFeedURL) for a channel and the channels more stable than it; ?os=windows for WinSparkle and NetSparkle; 304 when If-None-Match names its ETag",
      params: sparkleAppcastParams(channels), query: sparkleAppcastQuery, hot: true,
      status: [200, 304], response: APPCAST,
      handle: ({ params, query }, ctx, customer) =>
        feedAnswers.answer(sparkleAppcastFeed, ctx, customer, {
          applicationId: params.applicationId, channel: params.channel, system: query.os ?? 'macos', arch: query.arch,
          userAgentVersion: SPARKLE_USER_AGENT.exec(ctx.get('User-Agent'))?.[1],
        }),
    }),
  ];
};
