import { callerBaseUrl } from '../../http/caller-base-url';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen } from '../../http/eventually';
import type { Arch } from '../../../shared/releases/platforms';
import type { AppcastSystem } from './sparkle-appcast';
import type { AppcastAnswer } from './sparkle-feed';
import type { UpdateCheckRecorder } from '../update-check-recorder';
import { documentResponse, route} from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { SparkleFeed } from './sparkle-feed';
import { sparkleAppcastParams, sparkleAppcastQuery } from '../update-schemas';

const APPCAST_CONTENT_TYPE = 'application/rss+xml; charset=utf-8';

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
export const sparkleRoutes: RouteModule<{ sparkleFeed: SparkleFeed; updateChecks: UpdateCheckRecorder }> = (deps, { sparkleFeed, updateChecks }) => {
  const { channels } = deps.config;
  const { publicBaseUrl } = deps.config;
  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/sparkle/:channel/appcast.xml', operationId: 'getSparkleAppcast', guard: 'customer', noStore: true,
      summary: "Sparkle's appcast (SUFeedURL) for a channel and the channels more stable than it; ?os=windows for WinSparkle and NetSparkle",
      params: sparkleAppcastParams(channels), query: sparkleAppcastQuery, hot: true,
      status: 200, response: APPCAST,
      handle: ({ params, query }, ctx, customer) => {
        const baseUrl = callerBaseUrl(publicBaseUrl, ctx.state);
        const request = { applicationId: params.applicationId, channel: params.channel, system: query.os ?? 'macos', arch: query.arch };
        const feedUrl = `${baseUrl}/v1/updates/${params.applicationId}/sparkle/${params.channel}/appcast.xml`;
        return andThen(sparkleFeed.appcast(customer, request, baseUrl, feedUrl), (answer: AppcastAnswer) => {
          answerAppcastCheck(updateChecks, ctx, customer, { applicationId: params.applicationId, channel: params.channel, platform: request.system, arch: query.arch }, answer);
        }, undefined);
      },
    }),
  ];
};

/** Sparkle's User-Agent: `<App>/<CFBundleVersion> Sparkle/<its version>`; the app's bundle version is what it runs. */
const SPARKLE_USER_AGENT = /^[^/\s]+\/(\S{1,64}) Sparkle\//;

/** Every answered appcast check ends here: the one place a check is known to have been answered, and recorded. */
function answerAppcastCheck(
  updateChecks: UpdateCheckRecorder, ctx: AppContext, customer: CustomerPrincipal,
  check: { applicationId: string; channel: string; platform: AppcastSystem; arch: Arch | undefined }, answer: AppcastAnswer,
): void {
  updateChecks.recordUpdateCheck(ctx, customer, {
    applicationId: check.applicationId, client: 'sparkle', platform: check.platform, arch: check.arch ?? (check.platform === 'macos' ? 'universal' : 'any'), channel: check.channel,
    runningVersion: SPARKLE_USER_AGENT.exec(ctx.get('User-Agent'))?.[1], offeredVersion: answer.offeredVersion, installId: null,
  });
  ctx.status = 200;
  ctx.set('Content-Type', APPCAST_CONTENT_TYPE);
  ctx.body = answer.document;
}
