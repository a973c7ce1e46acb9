import { requireVersionRange } from '../../shared/contract/fields';
import { issueAccessToken } from '../../shared/api-keys';
import type { Clock } from '../../shared/clock';
import { badRequest, conflict, notFound } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { ACCESS_TOKENS_PER_CUSTOMER_MAX } from '../../shared/policy';
import type { AccessToken, AccessTokenUsage } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import { type TokenPeriod, tokenPeriod } from '../../shared/token-periods';
import type { AccessTokenCache } from '../auth/access-token-cache';
import type { CreateAccessTokenRequest, UpdateAccessTokenRequest } from '../../shared/contract/access-tokens-requests';

/** A token with its counts in the period that holds now. */
export interface AccessTokenWithUsage {
  token: AccessToken;
  usage: AccessTokenUsage;
  period: TokenPeriod;
}

/**
 * Customers' access tokens, announced (created, revoked) as customer keys are. A token's applications
 * must be among its customer's; every change of a token is written through the token cache, so it is in force on every gateway's next request, or
 * refused with 503 and nothing written.
 */
export class AccessTokenService {
  constructor(
    private readonly store: Store,
    private readonly tokens: AccessTokenCache,
    private readonly clock: Clock,
    private readonly webhooks: WebhookEvents,
  ) {}

  async create(customerId: string, request: CreateAccessTokenRequest): Promise<{ record: AccessToken; token: string }> {
    requireVersionRange(request.versionRange);
    await this.customer(customerId);
    if ((await this.store.accessTokens.listAccessTokens(customerId)).length >= ACCESS_TOKENS_PER_CUSTOMER_MAX) {
      throw conflict(`customer ${customerId} already holds ${ACCESS_TOKENS_PER_CUSTOMER_MAX} active access tokens: revoke one first`);
    }
    if (request.applications) await this.checkApplications(customerId, request.applications);
    const issued = issueAccessToken();
    const now = new Date(this.clock.now());
    const tokenHash = issued.keyHash;
    const record = await this.webhooks.announceChange([{ type: 'access_token.created', subject: [tokenHash], at: now }], () => this.store.accessTokens.createAccessToken({
      tokenId: newId('tok'),
      customerId,
      tokenHash,
      prefix: issued.prefix,
      name: request.name ?? null,
      maxDownloads: request.maxDownloads ?? null,
      maxClients: request.maxClients ?? null,
      maxBytes: request.maxBytes ?? null,
      validFrom: request.validFrom ?? null,
      validUntil: request.validUntil ?? null,
      applications: request.applications ?? null,
      channels: request.channels ?? null,
      platforms: request.platforms ?? null,
      resetEvery: request.resetEvery ?? null,
      updatesUntil: request.updatesUntil ?? null,
      versionRange: request.versionRange ?? null,
      createdAt: now,
      updatedAt: now,
      lastUsedAt: null,
      revokedAt: null,
    }), (created) => [webhookData.accessToken(created)]);
    return { record, token: issued.apiKey };
  }

  async list(customerId: string): Promise<AccessToken[]> {
    await this.customer(customerId);
    return this.store.accessTokens.listAccessTokens(customerId);
  }

  /** The token and its counts in the current period. */
  async get(customerId: string, tokenId: string): Promise<AccessTokenWithUsage> {
    const token = await this.store.accessTokens.getAccessToken(customerId, tokenId);
    if (!token) throw tokenNotFound(customerId, tokenId);
    const period = tokenPeriod(token.resetEvery, token.createdAt, this.clock.now());
    return { token, usage: await this.store.accessTokens.getAccessTokenUsage(tokenId, period.start), period };
  }

  async update(customerId: string, tokenId: string, patch: UpdateAccessTokenRequest): Promise<AccessToken> {
    requireVersionRange(patch.versionRange);
    const current = await this.store.accessTokens.getAccessToken(customerId, tokenId);
    if (!current || current.revokedAt) throw tokenNotFound(customerId, tokenId);
    if (patch.applications) await this.checkApplications(customerId, patch.applications);
    const validFrom = patch.validFrom === undefined ? current.validFrom : patch.validFrom;
    const validUntil = patch.validUntil === undefined ? current.validUntil : patch.validUntil;
    if (validFrom && validUntil && validFrom.getTime() >= validUntil.getTime()) throw badRequest('validFrom must be before validUntil');
    const at = new Date(this.clock.now());
    const updated = await this.tokens.change(current.tokenHash, () => this.store.accessTokens.updateAccessToken(customerId, tokenId, patch, at));
    if (!updated) throw tokenNotFound(customerId, tokenId);
    return updated;
  }

  async revoke(customerId: string, tokenId: string): Promise<AccessToken> {
    const current = await this.store.accessTokens.getAccessToken(customerId, tokenId);
    const at = new Date(this.clock.now());
    const revoked = current && !current.revokedAt
      ? await this.webhooks.announceChange(
        [{ type: 'access_token.revoked', subject: [current.tokenHash], at }],
        () => this.tokens.change(current.tokenHash, () => this.store.accessTokens.revokeAccessToken(customerId, tokenId, at)),
        (token) => [token && webhookData.accessToken(token)],
      )
      : null;
    if (!revoked) throw tokenNotFound(customerId, tokenId);
    return revoked;
  }

  private async customer(customerId: string): Promise<void> {
    if (!(await this.store.accounts.getCustomer(customerId))) throw notFound(`customer ${customerId} not found`);
  }

  /** A token narrows its customer's access: each application must be one the customer may download now. */
  private async checkApplications(customerId: string, applicationIds: readonly string[]): Promise<void> {
    const applications = await Promise.all(applicationIds.map((id) => this.store.applications.getApplication(id)));
    const outside = applicationIds.filter((_, i) => !applications[i]?.customerIds.includes(customerId));
    if (outside.length > 0) throw badRequest(`customer ${customerId} may not download ${outside.join(', ')}: a token's applications are among its customer's`);
  }
}

const tokenNotFound = (customerId: string, tokenId: string) => notFound(`no active access token ${tokenId} for customer ${customerId}`);
