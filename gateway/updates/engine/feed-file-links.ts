import { notFound } from '../../../shared/errors';
import { DOWNLOAD_URL_LIFETIME_SECONDS } from '../../../shared/policy';
import { isBlockmapName } from '../../../shared/releases/blockmaps';
import { LATEST_VERSION } from '../../../shared/releases/version-order';
import { presentRedirect } from '../../../shared/contract/downloads';
import type { AppContext, CustomerPrincipal } from '../../http/context';
import { isPending } from '../../http/eventually';
import { readMethodOf } from '../../http/read-method';
import type { Reply } from '../../http/reply';
import type { DownloadService } from '../../downloads/download-service';
import type { ReleaseCatalog } from '../../releases/release-catalog';
import { grantPackage } from '../nuget/package-updates';

type Redirect = Reply<{ downloadUrl: string; expiresAt: string }>;

/**
 * The files the feeds link to, answered as every file link is (answerFileLink: a GET one download
 * event and 302, byte ranges answered here and counted against an access token, HEAD nothing): the
 * electron file route (which every feed's file links name) with its blockmaps, and the NuGet
 * package links beside the Squirrel.Windows and Velopack feeds.
 */
export class FeedFileLinks {
  constructor(private readonly catalog: ReleaseCatalog, private readonly downloads: DownloadService) {}

  /** An exact version's file; its blockmap, of any version customers have had, with no event (it is not the file). */
  async file(ctx: AppContext, customer: CustomerPrincipal, target: { applicationId: string; version: string; fileName: string }): Promise<Redirect | Reply<never>> {
    // A file link names the exact version its feed listed; `latest` would name no file.
    if (target.version === LATEST_VERSION) throw notFound('version not found');
    if (isBlockmapName(target.fileName)) return this.blockmap(target, customer, ctx);
    const granted = this.downloads.check(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    return this.downloads.answerFileLink(ctx, customer, file);
  }

  /** A package link: granted as an exact version's file is (package-updates.ts, grantPackage) and let through the licence gate. */
  async package(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, fileName: string): Promise<Redirect | Reply<never>> {
    const granted = this.downloads.licensedFile(customer, grantPackage(this.catalog, customer, applicationId, fileName));
    const { file } = isPending(granted) ? await granted : granted;
    return this.downloads.answerFileLink(ctx, customer, file);
  }

  /** A differential update's blockmap: its pre-signed URL, and no download event. */
  private async blockmap(target: { applicationId: string; version: string; fileName: string }, customer: CustomerPrincipal, ctx: AppContext): Promise<Redirect> {
    const granted = this.downloads.checkBlockmap(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    const answered = this.downloads.answer(file, DOWNLOAD_URL_LIFETIME_SECONDS, presentRedirect, readMethodOf(ctx));
    const answer = isPending(answered) ? await answered : answered;
    ctx.set('Location', answer.data.downloadUrl);
    return answer;
  }
}
