import { callerBaseUrl } from '../../http/caller-base-url';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen, Eventually } from '../../http/eventually';
import type { AppcastAnswer, AppcastRequest, SparkleFeed } from './sparkle-feed';
import type { UpdateCheckRecorder } from '../update-check-recorder';

const APPCAST_CONTENT_TYPE = 'application/rss+xml; charset=utf-8';

/** Sparkle's User-Agent: `<App>/<CFBundleVersion> Sparkle/<its version>`; the app's bundle version is what it runs. */
const SPARKLE_USER_AGENT = /^[^/\s]+\/(\S{1,64}) Sparkle\//;


/**
 * What the appcast route answers: the feed's appcast, the check recorded, the document written. A
 * warm check answers without a promise (`Eventually`); the route calls this one method.
 */
export class SparkleAnswers {
  constructor(
    private readonly feed: SparkleFeed,
    private readonly updateChecks: UpdateCheckRecorder,
    private readonly publicBaseUrl: string,
  ) {}

  appcast(ctx: AppContext, customer: CustomerPrincipal, check: AppcastRequest): Eventually<void> {
    const baseUrl = callerBaseUrl(this.publicBaseUrl, ctx.state);
    const feedUrl = `${baseUrl}/v1/updates/${check.applicationId}/sparkle/${check.channel}/appcast.xml`;
    const running = SPARKLE_USER_AGENT.exec(ctx.get('User-Agent'))?.[1];
    return andThen(this.feed.appcast(customer, check, baseUrl, feedUrl, running), (answer: AppcastAnswer) => this.answerAppcastRequest(ctx, customer, check, answer, running), undefined);
  }

  /** Every answered appcast check ends here: the one place a check is known to have been answered, and recorded. */
  private answerAppcastRequest(ctx: AppContext, customer: CustomerPrincipal, check: AppcastRequest, answer: AppcastAnswer, running: string | undefined): void {
    this.updateChecks.recordUpdateCheck(ctx, customer, {
      applicationId: check.applicationId, client: 'sparkle', platform: check.system, arch: check.arch ?? (check.system === 'macos' ? 'universal' : 'any'), channel: check.channel,
      runningVersion: running, offeredVersion: answer.offeredVersion, installId: null,
    });
    ctx.status = 200;
    ctx.set('Content-Type', APPCAST_CONTENT_TYPE);
    ctx.body = answer.document;
  }
}
