import { forbidden, gone, notFound } from '../../shared/errors';
import type { EventOrigin } from '../../shared/events/event-recorder';
import { randomToken } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { JobQueues } from '../../shared/queues/job-queues';
import { hashSecret } from '../../shared/secrets';
import type { ShareLink } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import type { ApiKeyCache } from '../auth/api-key-cache';
import type { InvalidationBus } from '../../shared/cache/invalidation-bus';
import { LocalCache } from '../../shared/cache/local-cache';
import { isPending } from '../http/eventually';
import type { Reply } from '../http/reply';
import { SHARE_LINK_DEFAULT_MINUTES, SHARE_REDIRECT_LIFETIME_SECONDS } from '../../shared/policy';
import type { CreateShareRequest } from '../../shared/contract/downloads-requests';
import type { DownloadPresenter } from './answer-cache';
import { counted, type DownloadCacheLookups } from '../releases/cache-lookups';
import type { DownloadService } from './download-service';
import { entitlementOf } from '../../shared/releases/maintenance-window';
import type { ReleaseCaller } from '../releases/release-catalog';

/**
 * Share links: a 256-bit token, stored only as its SHA-256. Each use re-checks access
 * as the creating customer stands now and redirects to a short-lived download URL.
 */
export class ShareLinkService {
  private readonly links: LocalCache<ShareLink>;

  constructor(
    private readonly store: Store,
    private readonly keyCache: ApiKeyCache,
    private readonly bus: InvalidationBus,
    private readonly downloads: DownloadService,
    private readonly jobs: JobQueues,
    private readonly webhooks: WebhookEvents,
    private readonly logger: Logger,
    private readonly lookups: DownloadCacheLookups,
  ) {
    this.links = new LocalCache(bus);
  }

  async create(customer: ReleaseCaller, target: CreateShareRequest): Promise<{ token: string; link: ShareLink }> {
    const { file } = await this.downloads.check(customer, target);
    const token = randomToken(32);
    const now = new Date();
    const tokenHash = hashSecret(token);
    const link = await this.webhooks.announceChange([{ type: 'share_link.created', subject: [tokenHash], at: now }], () => this.store.shareLinks.createShareLink({
      tokenHash,
      customerId: customer.customerId,
      applicationId: file.applicationId,
      version: file.version,
      fileId: file.fileId,
      expiresAt: new Date(now.getTime() + (target.expiresInMinutes ?? SHARE_LINK_DEFAULT_MINUTES) * 60_000),
      revokedAt: null,
      expiredAt: null,
      maxDownloads: target.maxDownloads ?? null,
      downloadCount: 0,
      createdAt: now,
    }), (created) => [webhookData.shareLinkCreated(created)]);
    await this.scheduleExpiry(link);
    return { token, link };
  }

  /**
   * The answer to a use of the link, presented by `present`; `record` is false for HEAD, which
   * downloads nothing. Every lookup answers from process memory when it can.
   */
  async resolve<T>(token: string, origin: Omit<EventOrigin, 'customerId'>, record: boolean, present: DownloadPresenter<T>): Promise<Reply<T>> {
    const tokenHash = hashSecret(token);
    const link = counted(this.links.get(tokenHash), this.lookups.shareLinks) ?? await this.link(tokenHash);
    if (!link) throw notFound('share link not found');
    if (link.revokedAt) throw gone('this share link has been revoked');
    const remainingSeconds = Math.floor((link.expiresAt.getTime() - Date.now()) / 1000);
    if (remainingSeconds < 1) throw gone('this share link has expired');

    const customer = this.keyCache.cachedStanding(link.customerId) ?? await this.keyCache.standing(link.customerId);
    if (!customer) throw notFound('share link not found');
    if (!customer.isActive) throw forbidden('the account that shared this link is inactive');
    const checked = this.downloads.check({ customerId: link.customerId, tier: customer.tier, entitlement: entitlementOf(customer) }, link);
    const { file } = isPending(checked) ? await checked : checked;
    const answered = this.downloads.answer(file, Math.min(SHARE_REDIRECT_LIFETIME_SECONDS, remainingSeconds), present, record ? 'GET' : 'HEAD');
    const answer = isPending(answered) ? await answered : answered;
    if (link.maxDownloads !== null) await this.countUse(tokenHash, record);
    if (!record) return answer;
    try {
      await this.downloads.recordShareLinkUse(file, { ...origin, customerId: link.customerId });
    } catch (error) {
      // Not downloaded after all: the use is given back.
      if (link.maxDownloads !== null) await this.store.shareLinks.uncountShareLinkUse(tokenHash).catch(() => undefined);
      throw error;
    }
    return answer;
  }

  /**
   * A capped link's use, counted in the store in one conditional write, so that of concurrent uses on
   * every gateway only maxDownloads get through; HEAD counts nothing but is refused once they are used.
   * Uncapped links are not counted: their uses touch the store only to record the download.
   */
  private async countUse(tokenHash: string, counting: boolean): Promise<void> {
    const used = counting ? await this.store.shareLinks.countShareLinkUse(tokenHash) : await this.store.shareLinks.getShareLink(tokenHash);
    if (!used || (!counting && used.downloadCount >= (used.maxDownloads as number))) {
      throw gone('this share link has been used as many times as it allows');
    }
  }

  /** Revokes the caller's own link; like every cached change, refused with 503 when it cannot reach every gateway. */
  async revoke(customerId: string, token: string): Promise<ShareLink> {
    return this.revokeByHash(customerId, hashSecret(token));
  }

  /** A customer's link revoked by the vendor's team, named by its token's hash (its listed id). */
  async revokeByHash(customerId: string, tokenHash: string): Promise<ShareLink> {
    const link = await this.store.shareLinks.getShareLink(tokenHash);
    const revoked = link?.customerId === customerId && !link.revokedAt
      ? await this.bus.change([['share', tokenHash]], () => this.store.shareLinks.revokeShareLink(tokenHash, customerId, new Date()))
      : null;
    if (!revoked) throw notFound('share link not found');
    return revoked;
  }

  /**
   * A stored link, cached in process until it is revoked (expiry is checked on every use), or its
   * customer changes (a deletion revokes it) on any gateway.
   */
  private link(tokenHash: string): Promise<ShareLink | null> {
    return this.links.getOrLoad(tokenHash, () => this.store.shareLinks.getShareLink(tokenHash), (link) => [['share', tokenHash], ['customer', link.customerId]]);
  }

  /** Marks the link expired at expiresAt; expiry is enforced by the timestamp whether or not this job runs. */
  private async scheduleExpiry(link: ShareLink): Promise<void> {
    try {
      await this.jobs.enqueue('expire-share-link', { tokenHash: link.tokenHash, expiresAt: link.expiresAt.getTime() });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not schedule share-link expiry; the link still expires on time');
    }
  }
}
