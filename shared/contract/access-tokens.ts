import { z } from 'zod';
import { ACCESS_TOKEN_RESET_PERIODS } from '../policy';
import type { AccessToken, AccessTokenUsage } from '../store/models';
import type { TokenPeriod } from '../token-periods';
import { iso, isoOrNull, timestamp } from './common';

/** A token's limits as the API shows them; null is "no limit". */
const limitsShape = {
  name: z.string().nullable(),
  maxDownloads: z.number().int().nullable(),
  maxClients: z.number().int().nullable(),
  maxBytes: z.number().int().nullable(),
  validFrom: timestamp.nullable(),
  validUntil: timestamp.nullable(),
  applications: z.array(z.string()).nullable(),
  channels: z.array(z.string()).nullable(),
  platforms: z.array(z.string()).nullable(),
  resetEvery: z.enum(ACCESS_TOKEN_RESET_PERIODS).nullable(),
  /** The token's maintenance window, applied on top of its customer's. */
  updatesUntil: timestamp.nullable(),
  versionRange: z.string().nullable(),
};

/** A token as listed: never its hash, only the prefix a person recognises. */
export const accessTokenResponse = z.object({
  tokenId: z.string(),
  customerId: z.string(),
  prefix: z.string(),
  ...limitsShape,
  createdAt: timestamp,
  updatedAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  /** null while the token works. */
  revokedAt: timestamp.nullable(),
});

export function presentAccessToken(token: AccessToken): z.input<typeof accessTokenResponse> {
  return {
    tokenId: token.tokenId,
    customerId: token.customerId,
    prefix: token.prefix,
    name: token.name,
    maxDownloads: token.maxDownloads,
    maxClients: token.maxClients,
    maxBytes: token.maxBytes,
    validFrom: isoOrNull(token.validFrom),
    validUntil: isoOrNull(token.validUntil),
    applications: token.applications,
    channels: token.channels,
    platforms: token.platforms,
    resetEvery: token.resetEvery,
    updatesUntil: isoOrNull(token.updatesUntil),
    versionRange: token.versionRange,
    createdAt: iso(token.createdAt),
    updatedAt: iso(token.updatedAt),
    lastUsedAt: isoOrNull(token.lastUsedAt),
    revokedAt: isoOrNull(token.revokedAt),
  };
}

/** The token itself appears in this answer only: it is stored as its hash. */
/**
 * A token as created: the only answer that carries it, with the customer's portal link, where the token
 * travels in the URL's fragment (`/portal#token=...`), which browsers never send to a server.
 */
export const issuedAccessTokenResponse = accessTokenResponse.extend({ token: z.string(), portalUrl: z.string().url() });

/** The download portal's address opened with `token`. */
export const portalUrlOf = (publicBaseUrl: string, token: string): string => `${publicBaseUrl}/portal#token=${encodeURIComponent(token)}`;

export function presentIssuedAccessToken(record: AccessToken, token: string, publicBaseUrl: string): z.input<typeof issuedAccessTokenResponse> {
  return { ...presentAccessToken(record), token, portalUrl: portalUrlOf(publicBaseUrl, token) };
}

export const accessTokenListResponse = z.object({ tokens: z.array(accessTokenResponse) });

export function presentAccessTokenList(tokens: AccessToken[]): z.input<typeof accessTokenListResponse> {
  return { tokens: tokens.map(presentAccessToken) };
}

/** The counts of the current period, from periodStart until periodEnd (null: they never start again). */
export const accessTokenUsageResponse = z.object({
  downloads: z.number().int(),
  clients: z.number().int(),
  bytes: z.number().int(),
  periodStart: timestamp,
  periodEnd: timestamp.nullable(),
});

export const accessTokenWithUsageResponse = accessTokenResponse.extend({ usage: accessTokenUsageResponse });

export function presentAccessTokenWithUsage(token: AccessToken, usage: AccessTokenUsage, period: TokenPeriod): z.input<typeof accessTokenWithUsageResponse> {
  return { ...presentAccessToken(token), usage: { ...usage, periodStart: iso(period.start), periodEnd: isoOrNull(period.end) } };
}

export type AccessTokenView = z.output<typeof accessTokenResponse>;
export type IssuedAccessTokenView = z.output<typeof issuedAccessTokenResponse>;
export type AccessTokenWithUsageView = z.output<typeof accessTokenWithUsageResponse>;
export type AccessTokenListView = z.output<typeof accessTokenListResponse>;
