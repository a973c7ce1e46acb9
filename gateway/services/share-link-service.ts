import { forbidden, gone, notFound } from '../../shared/errors';
import type { EventOrigin } from '../../shared/events/event-recorder';
import { randomToken } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import type { JobQueues } from '../../shared/queues/job-queues';
import { hashSecret } from '../../shared/secrets';
import type { ShareLink } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { CreateShareRequest, SHARE_LINK_DEFAULT_MINUTES, SHARE_REDIRECT_LIFETIME_SECONDS } from '../schemas/download-schemas';
import type { ApiKeyCache } from '../auth/api-key-cache';
import type { CatalogCache } from '../cache/catalog-cache';
import type { InvalidationBus } from '../cache/invalidation-bus';
import { LocalCache } from '../cache/local-cache';
import { checkDownloadAccess } from './access-check';
import type { SignedDownload } from '../presenters/downloads';
import type { DownloadService } from './download-service';

const LINK_CACHE_TTL_MS = 30_000;

/**
 * Share links (spec 4.13): a 256-bit token, stored only as its SHA-256. Each use re-checks access
 * as the creating customer stands now and redirects to a short-lived download URL.
 */
export class ShareLinkService {
  private readonly links: LocalCache<ShareLink>;

  constructor(
    private readonly store: Store,
    private readonly catalog: CatalogCache,
    private readonly keyCache: ApiKeyCache,
    private readonly bus: InvalidationBus,
    private readonly downloads: DownloadService,
    private readonly jobs: JobQueues,
    private readonly tiers: readonly string[],
    private readonly logger: Logger,
  ) {
    this.links = new LocalCache(bus, LINK_CACHE_TTL_MS);
  }

  async create(customer: { customerId: string; tier: string }, target: CreateShareRequest): Promise<{ token: string; link: ShareLink }> {
    const { file } = await checkDownloadAccess(this.catalog, this.tiers, customer, target);
    const token = randomToken(32);
    const now = new Date();
    const link = await this.store.createShareLink({
      tokenHash: hashSecret(token),
      customerId: customer.customerId,
      applicationId: file.applicationId,
      version: file.version,
      fileId: file.fileId,
      expiresAt: new Date(now.getTime() + (target.expiresInMinutes ?? SHARE_LINK_DEFAULT_MINUTES) * 60_000),
      revokedAt: null,
      expiredAt: null,
      createdAt: now,
    });
    await this.scheduleExpiry(link);
    return { token, link };
  }

  /** The download a use of the link grants; `record` is false for HEAD, which downloads nothing. */
  async resolve(token: string, origin: Omit<EventOrigin, 'customerId'>, record: boolean): Promise<Readonly<SignedDownload>> {
    const tokenHash = hashSecret(token);
    const link = this.links.get(tokenHash) ?? await this.link(tokenHash);
    if (!link) throw notFound('share link not found');
    if (link.revokedAt) throw gone('this share link has been revoked');
    const remainingSeconds = Math.floor((link.expiresAt.getTime() - Date.now()) / 1000);
    if (remainingSeconds < 1) throw gone('this share link has expired');

    const customer = this.keyCache.cachedStanding(link.customerId) ?? await this.keyCache.standing(link.customerId);
    if (!customer) throw notFound('share link not found');
    if (!customer.isActive) throw forbidden('the account that shared this link is inactive');
    const checked = checkDownloadAccess(this.catalog, this.tiers, { customerId: link.customerId, tier: customer.tier }, link);
    const granted = checked instanceof Promise ? await checked : checked;
    const lifetime = Math.min(SHARE_REDIRECT_LIFETIME_SECONDS, remainingSeconds);
    const downloadOrigin = { ...origin, customerId: link.customerId };
    return record ? this.downloads.presign(granted, lifetime, downloadOrigin) : this.downloads.presignWithoutEvent(granted, lifetime);
  }

  /** Revokes the caller's own link; like every cached change, refused with 503 when it cannot reach every gateway. */
  async revoke(customerId: string, token: string): Promise<ShareLink> {
    const tokenHash = hashSecret(token);
    const link = await this.store.getShareLink(tokenHash);
    const revoked = link?.customerId === customerId && !link.revokedAt
      ? await this.bus.change([['share', tokenHash]], () => this.store.revokeShareLink(tokenHash, customerId, new Date()))
      : null;
    if (!revoked) throw notFound('share link not found');
    return revoked;
  }

  /** A stored link, cached in process until it is revoked (expiry is checked on every use). */
  private link(tokenHash: string): Promise<ShareLink | null> {
    return this.links.getOrLoad(tokenHash, () => this.store.getShareLink(tokenHash), [['share', tokenHash]]);
  }

  /** Marks the link expired at expiresAt; expiry is enforced by the timestamp whether or not this job runs. */
  private async scheduleExpiry(link: ShareLink): Promise<void> {
    try {
      await this.jobs.enqueue('expire-share-link', { tokenHash: link.tokenHash }, {
        jobId: `share-${link.tokenHash}`,
        delay: Math.max(0, link.expiresAt.getTime() - Date.now()),
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not schedule share-link expiry; the link still expires on time');
    }
  }
}
