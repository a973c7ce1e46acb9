import { buildEvent, EventOrigin, EventRecorder } from '../../shared/events/event-recorder';
import { servedContentType, type ObjectStorage, type PresignGetOptions } from '../../shared/storage/object-storage';
import type { FileRecord } from '../../shared/store/models';
import { andThen, Eventually, isPending } from '../http/eventually';
import type { LicenceGate } from './licence-gate';
import { Reply } from '../http/reply';
import { DOWNLOAD_URL_LIFETIME_SECONDS, LATEST_LINK_REDIRECT_LIFETIME_SECONDS } from '../../shared/policy';
import { DownloadAnswerCache, DownloadPresenter } from './answer-cache';
import { counted, type DownloadCacheLookups } from '../releases/cache-lookups';
import type { FileRequest, GrantedFile, LatestBuildRequest, OfferedRelease, ReleaseCaller, ReleaseCatalog, ReleaseSelector } from '../releases/release-catalog';
import type { Application, LicenceAcceptance } from '../../shared/store/models';
import type { CustomerPrincipal } from '../http/context';
import type { TokenGrant } from '../http/context';
import type { DownloadOrigin } from '../http/client-origin';
import type { TokenMeter } from './token-meter';
import { answerFileLink } from './file-links';
import type { AppContext } from '../http/context';

/**
 * Pre-signed download URLs: the file the release catalogue grants, its URL, and one
 * durable download event per answer (a customer's repeats of a download within a window count once).
 * During a burst every request for one file in one second gets the same answer from the answer
 * cache: signed and serialized once.
 */
export class DownloadService {
  private readonly answers = new DownloadAnswerCache();

  constructor(
    private readonly releases: ReleaseCatalog,
    private readonly storage: ObjectStorage,
    private readonly events: EventRecorder,
    private readonly lookups: DownloadCacheLookups,
    private readonly meter: TokenMeter,
    private readonly licences: LicenceGate,
  ) {}

  /** The file a request names, granted by the release catalogue and let through the licence gate. */
  check(customer: ReleaseCaller, target: FileRequest): Eventually<GrantedFile> {
    return this.licensedFile(customer, this.releases.grant(customer, target));
  }

  /** A file granted by the release catalogue (`granted`), let through the licence gate: what every byte path a customer takes asks. */
  licensedFile(customer: ReleaseCaller, granted: Eventually<GrantedFile>): Eventually<GrantedFile> {
    return andThen(granted, this.licensed, customer);
  }

  /** A blockmap of a version the caller runs or is offered (ReleaseCatalog.grantBlockmap): read by a differential update, never a download. */
  checkBlockmap(customer: ReleaseCaller, target: { applicationId: string; version: string; fileName: string }): Eventually<GrantedFile> {
    return this.releases.grantBlockmap(customer, target);
  }

  /** A granted file, once the caller has accepted its application's licence (403 LICENCE_ACCEPTANCE_REQUIRED otherwise). */
  private readonly licensed = (granted: GrantedFile, customer: ReleaseCaller): Eventually<GrantedFile> => {
    const admitted = this.licences.admit(customer, granted.application);
    return isPending(admitted) ? admitted.then(() => granted) : granted;
  };

  /** A download URL's answer; `downloading` is false for a HEAD, which records and counts nothing. */
  issueUrl<T>(customer: ReleaseCaller, target: FileRequest, origin: DownloadOrigin, present: DownloadPresenter<T>, downloading: boolean): Promise<Reply<T>> {
    return this.issue(this.check(customer, target), DOWNLOAD_URL_LIFETIME_SECONDS, origin, present, downloading);
  }

  /** A latest link's answer: the newest build offered for the target, its short-lived URL and one download event (none for a HEAD). */
  issueLatest<T>(customer: ReleaseCaller, request: LatestBuildRequest, origin: DownloadOrigin, present: DownloadPresenter<T>, downloading: boolean): Promise<Reply<T>> {
    return this.issue(andThen(this.releases.latestBuild(customer, request), this.licensed, customer), LATEST_LINK_REDIRECT_LIFETIME_SECONDS, origin, present, downloading);
  }

  private async issue<T>(checked: Eventually<GrantedFile>, lifetimeSeconds: number, origin: DownloadOrigin, present: DownloadPresenter<T>, downloading: boolean): Promise<Reply<T>> {
    const { file } = isPending(checked) ? await checked : checked;
    const answered = this.answer(file, lifetimeSeconds, present, downloading ? 'GET' : 'HEAD');
    const answer = isPending(answered) ? await answered : answered;
    if (downloading) await this.record(file, origin);
    else await this.checkToken(origin);
    return answer;
  }

  /**
   * The answer for a GET of `file` signed for `lifetimeSeconds`, presented by `present`: now when it
   * was signed in this second already. URLs are signed to the second, and the answer states the
   * expiry the URL itself carries. For a HEAD (`method`), which counts nothing, the URL answers HEAD
   * only, so a look at a link never hands out the file's bytes.
   */
  answer<T>(file: FileRecord, lifetimeSeconds: number, present: DownloadPresenter<T>, method: 'GET' | 'HEAD'): Eventually<Reply<T>> {
    const second = Math.floor(Date.now() / 1000);
    if (method === 'HEAD') return this.signHead(file, lifetimeSeconds, present, second);
    return counted(this.answers.signed(file, lifetimeSeconds, present, second), this.lookups.answers) ?? this.sign(file, lifetimeSeconds, present, second);
  }

  /**
   * A customer's download: one event, stored before the answer, except that the downloads of one file
   * by one customer count once within the repeat window (a resumed download asks for a URL again).
   */
  /** The releases a customer may download, newest first (the releases listing). */
  async offeredReleases(customer: ReleaseCaller, selector: ReleaseSelector): Promise<readonly OfferedRelease[]> {
    return this.releases.releases(customer, selector);
  }

  /** An application the customer may download (404 otherwise), as the catalogue holds it. */
  async application(customer: ReleaseCaller, applicationId: string): Promise<Application> {
    return this.releases.application(customer, applicationId);
  }

  /** An application's licence as a customer sees it, with their acceptance of it: 404 for an application they may not download. */
  async licence(customer: CustomerPrincipal, applicationId: string): Promise<{ application: Application; acceptance: LicenceAcceptance | null }> {
    const application = await this.releases.application(customer, applicationId);
    return { application, acceptance: await this.licences.acceptanceOf(customer, application) };
  }

  /** A customer's acceptance of the current revision of an application's licence (recorded and audited by the licence gate). */
  async acceptLicence(customer: CustomerPrincipal, applicationId: string, revision: number, clientIp: string | null, requestId: string): Promise<LicenceAcceptance> {
    const application = await this.releases.application(customer, applicationId);
    return this.licences.accept(customer, application, revision, clientIp, requestId);
  }

  record(file: FileRecord, origin: DownloadOrigin): Promise<void> {
    return origin.token ? this.recordTokenDownload(file, origin, origin.token) : this.events.recordDownload(file, origin);
  }

  /** A download with an access token: counted against its limits first (403 when one is reached), given back when it cannot be recorded. */
  private async recordTokenDownload(file: FileRecord, origin: DownloadOrigin, token: TokenGrant): Promise<void> {
    const giveBack = await this.meter.count(token, file.fileSize, origin.clientIp);
    try {
      await this.events.recordDownload(file, origin);
    } catch (error) {
      await giveBack().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Byte ranges of a file answered to an access token: their `bytes` counted against its limits (403
   * once its downloads or bytes are spent), no download event (they are pieces of a download).
   */
  async countRanges(token: TokenGrant, bytes: number, origin: DownloadOrigin): Promise<void> {
    await this.meter.count(token, bytes, origin.clientIp, 0);
  }

  /**
   * A granted, licensed file asked for through a link a client follows (a feed's file, a repository's
   * package, a TUF target): the rules of file-links.ts, byte ranges and HEAD included.
   */
  answerFileLink(ctx: AppContext, customer: CustomerPrincipal, file: FileRecord): Promise<Reply<{ downloadUrl: string; expiresAt: string }> | Reply<never>> {
    return answerFileLink(ctx, customer, file, this, this.storage);
  }

  /** A HEAD of a download with an access token counts nothing, but a spent token is refused as its GET would be. */
  async checkToken(origin: DownloadOrigin): Promise<void> {
    if (origin.token) await this.meter.check(origin.token);
  }

  /** A share link's use: one event each, as each use is counted against the link (its users are not its creator). */
  recordShareLinkUse(file: FileRecord, origin: EventOrigin): Promise<void> {
    return this.events.record(buildEvent('download', file, origin));
  }

  /** A HEAD-only URL: signed for each look (HEADs are rare), never kept with the GET answers. */
  private async signHead<T>(file: FileRecord, lifetimeSeconds: number, present: DownloadPresenter<T>, second: number): Promise<Reply<T>> {
    const downloadUrl = await this.storage.presignHead(file.storageKey, readUrlOptions(file, lifetimeSeconds, second));
    return Reply.shared(present(signedDownload(file, downloadUrl, lifetimeSeconds, second)));
  }

  private async sign<T>(file: FileRecord, lifetimeSeconds: number, present: DownloadPresenter<T>, second: number): Promise<Reply<T>> {
    const downloadUrl = await this.storage.presignGet(file.storageKey, readUrlOptions(file, lifetimeSeconds, second));
    return this.answers.remember(signedDownload(file, downloadUrl, lifetimeSeconds, second), lifetimeSeconds, present, second);
  }
}

/** What a URL reading `file` is signed with: its lifetime from `second`, the name and type it is served as. */
const readUrlOptions = (file: FileRecord, lifetimeSeconds: number, second: number): PresignGetOptions => ({
  expiresInSeconds: lifetimeSeconds,
  fileName: file.fileName,
  contentType: servedContentType(file.contentType),
  signedAt: second,
});

const signedDownload = (file: FileRecord, downloadUrl: string, lifetimeSeconds: number, second: number) =>
  Object.freeze({ file, downloadUrl, expiresAt: new Date((second + lifetimeSeconds) * 1000) });
