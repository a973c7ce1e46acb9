import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../../shared/policy';
import { presentRedirect } from '../../../shared/contract/downloads';
import { clientOrigin } from '../../http/client-origin';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { andThen, Eventually, isPending } from '../../http/eventually';
import { readMethodOf } from '../../http/read-method';
import { Reply } from '../../http/reply';
import { NO_CONTENT, storedDocument } from '../../http/stored-document';
import type { DownloadService } from '../../downloads/download-service';
import type { ReleaseCatalog } from '../../releases/release-catalog';
import type { UpdateCheckRecorder } from '../update-check-recorder';
import { SquirrelMacCheck, SquirrelMacPick, squirrelMacPick, squirrelMacSelector, squirrelUpdateAnswer } from './squirrel-mac-family';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const NO_UPDATE = Reply.document(NO_CONTENT);

/**
 * Squirrel.Mac downloads without the feed's headers, so its answer carries a pre-signed URL and is
 * the download: the licence gate is asked, and the download recorded (not for a HEAD), per request.
 * "Up to date" is the stored 204.
 */
export class SquirrelMacAnswers {
  constructor(
    private readonly catalog: ReleaseCatalog,
    private readonly downloads: DownloadService,
    private readonly checks: UpdateCheckRecorder,
  ) {}

  check(ctx: AppContext, customer: CustomerPrincipal, request: SquirrelMacCheck): Eventually<Reply<never>> {
    const selector = squirrelMacSelector(request);
    const sources = { rollback: (running: string) => this.catalog.rollback(customer, selector, running) };
    return andThen(this.catalog.releases(customer, selector), (offered) => andThen(squirrelMacPick(offered, request, sources), (pick): Eventually<Reply<never>> => {
      this.checks.recordUpdateCheck(ctx, customer, {
        applicationId: request.applicationId, client: 'squirrel-mac', platform: 'macos', arch: request.arch, channel: request.channel,
        runningVersion: request.running.version, offeredVersion: pick ? pick.release.version.version : null, installId: null,
      });
      return pick ? this.update(pick, customer, ctx) : NO_UPDATE;
    }, undefined), undefined);
  }

  private async update({ release, file }: SquirrelMacPick, customer: CustomerPrincipal, ctx: AppContext): Promise<Reply<never>> {
    // Its answer is the download: the licence gate is asked here (the check answered with the version is not).
    const admitted = this.downloads.check(customer, { applicationId: file.applicationId, version: file.version, fileId: file.fileId });
    if (isPending(admitted)) await admitted;
    const answered = this.downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect, readMethodOf(ctx));
    const answer = isPending(answered) ? await answered : answered;
    if (ctx.method === 'GET') await this.downloads.record(file, clientOrigin(ctx, customer.customerId));
    return Reply.document(storedDocument(JSON_CONTENT_TYPE, Buffer.from(JSON.stringify(squirrelUpdateAnswer(release.version, answer.data.downloadUrl)))));
  }
}
