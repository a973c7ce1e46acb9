import { notFound } from '../../../shared/errors';
import { defaultChannel } from '../../../shared/releases/channels';
import { callerBaseUrl } from '../../http/caller-base-url';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen, Eventually, isPending } from '../../http/eventually';
import type { Reply } from '../../http/reply';
import type { DownloadService } from '../../downloads/download-service';
import type { UpdateCheckRecorder } from '../update-check-recorder';
import type { RunningVersion } from '../update-schemas';
import { packageUrl, releasesEntry, releasesText, updateEntries, velopackFeed } from './package-feed-documents';
import type { PackageFeeds, PackageTarget, PackageUpdate } from './package-feeds';

const RELEASES_CONTENT_TYPE = 'text/plain; charset=utf-8';
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Which update client answered check a feed route made: what an update-check event names. */
export type PackageFeedClient = 'squirrel-windows' | 'velopack';

/** What an answered check of these feeds records: who asked for what, running which version. */
interface AnsweredCheck {
  client: PackageFeedClient;
  applicationId: string;
  target: PackageTarget;
  localVersion: RunningVersion | undefined;
}

/**
 * What the Squirrel.Windows and Velopack routes answer, one method per kind of route: the feed's
 * update, the check recorded for adoption, the document written (each serialized once per update and
 * feed base); a package link's redirect. A warm check answers without a promise (`Eventually`); the
 * routes call one method each and hand its result to the pipeline.
 */
export class PackageFeedAnswers {
  // Documents kept with the update they were made from (the catalogue's objects, dropped on every change): a burst of checks serializes each once.
  private readonly releasesDocuments = new WeakMap<PackageUpdate, Map<string, Buffer>>();
  private readonly velopackDocuments = new WeakMap<PackageUpdate, Buffer>();
  private readonly emptyVelopackFeed: Buffer;

  constructor(
    private readonly feeds: PackageFeeds,
    private readonly downloads: DownloadService,
    private readonly updateChecks: UpdateCheckRecorder,
    private readonly config: { channels: readonly string[]; publicBaseUrl: string },
  ) {
    this.emptyVelopackFeed = Buffer.from(JSON.stringify(velopackFeed([], feeds.notesHtml)));
  }

  /** RELEASES for Squirrel.Windows and the legacy file of Velopack: the update, or the client's own version, or 404 (an empty RELEASES is a failure to Squirrel). */
  releases(
    ctx: AppContext, customer: CustomerPrincipal, client: PackageFeedClient, applicationId: string, target: PackageTarget,
    query: { id?: string; localVersion?: RunningVersion }, feedPath: string,
  ): Eventually<void> {
    const base = this.feedBase(ctx, feedPath);
    return andThen(this.feeds.update(customer, applicationId, target, query.localVersion), (update): Eventually<void> => {
      const check = { client, applicationId, target, localVersion: query.localVersion };
      if (update) return this.answerCheck(ctx, customer, check, RELEASES_CONTENT_TYPE, this.releasesDocument(update, base), update);
      if (query.id === undefined || query.localVersion === undefined) throw notFound(noBuild(applicationId, target));
      return andThen(this.feeds.installedPackage(customer, applicationId, query.id, query.localVersion.version), (installed) => {
        const entry = installed && releasesEntry(installed.file);
        if (!entry) throw notFound(noBuild(applicationId, target));
        return this.answerCheck(ctx, customer, check, RELEASES_CONTENT_TYPE, Buffer.from(releasesText([entry], (fileName) => packageUrl(base, fileName))), null);
      }, undefined);
    }, undefined);
  }

  /** Velopack's release feed: the update's packages, or an empty list. */
  velopackFeed(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, target: PackageTarget, localVersion: RunningVersion | undefined): Eventually<void> {
    return andThen(this.feeds.update(customer, applicationId, target, localVersion), (update) =>
      this.answerCheck(ctx, customer, { client: 'velopack', applicationId, target, localVersion }, JSON_CONTENT_TYPE, this.velopackDocument(update), update), undefined);
  }

  /**
   * A package link: granted as an exact version's file is and let through the licence gate, then
   * answered as every feed's file link is (answerFileLink: one download event and 302 for a GET,
   * byte ranges counted against an access token, nothing for a HEAD).
   */
  async package(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, fileName: string): Promise<Reply<{ downloadUrl: string; expiresAt: string }> | Reply<never>> {
    const granted = this.downloads.licensedFile(customer, this.feeds.grantPackage(customer, applicationId, fileName));
    const { file } = isPending(granted) ? await granted : granted;
    return this.downloads.answerFileLink(ctx, customer, file);
  }

  /**
   * Every answered check of these feeds ends here (an update, no update, or the client's own version):
   * `offered` is the update listed, null when only the client's own version was. Refusals (401, 403,
   * 404) throw before it. The check is recorded for adoption (its running version is `localVersion`).
   */
  private answerCheck(
    ctx: AppContext, customer: CustomerPrincipal, check: AnsweredCheck, contentType: string, body: Buffer, offered: PackageUpdate | null,
  ): void {
    this.updateChecks.recordUpdateCheck(ctx, customer, {
      applicationId: check.applicationId,
      client: check.client,
      platform: check.target.platform ?? offered?.full.file.platform ?? 'any',
      arch: check.target.arch ?? offered?.full.file.arch ?? 'any',
      channel: check.target.channel ?? defaultChannel(this.config.channels),
      runningVersion: check.localVersion?.version,
      offeredVersion: offered ? offered.full.file.version : null,
      installId: null,
    });
    ctx.status = 200;
    ctx.set('Content-Type', contentType);
    ctx.body = body;
  }

  /** The links of an answer keep the caller's path token (callerBaseUrl). */
  private feedBase(ctx: AppContext, feedPath: string): string {
    return `${callerBaseUrl(this.config.publicBaseUrl, ctx.state)}${feedPath}`;
  }

  /** RELEASES of an update, under a feed base (the token and channel it names). */
  private releasesDocument(update: PackageUpdate, base: string): Buffer {
    let byBase = this.releasesDocuments.get(update);
    if (!byBase) {
      byBase = new Map();
      this.releasesDocuments.set(update, byBase);
    }
    let document = byBase.get(base);
    if (!document) {
      document = Buffer.from(releasesText(updateEntries(update).map((item) => item.file), (fileName) => packageUrl(base, fileName)));
      byBase.set(base, document);
    }
    return document;
  }

  private velopackDocument(update: PackageUpdate | null): Buffer {
    if (!update) return this.emptyVelopackFeed;
    let document = this.velopackDocuments.get(update);
    if (!document) {
      document = Buffer.from(JSON.stringify(velopackFeed(updateEntries(update), this.feeds.notesHtml)));
      this.velopackDocuments.set(update, document);
    }
    return document;
  }
}

function noBuild(applicationId: string, target: PackageTarget): string {
  const where = [target.platform && `platform ${target.platform}`, target.arch && `arch ${target.arch}`, target.packageId && `package ${target.packageId}`].filter(Boolean).join(', ');
  return `no package of ${applicationId} in channel ${target.channel}${where ? ` for ${where}` : ''}`;
}
