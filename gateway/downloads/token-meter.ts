import type { Clock } from '../../shared/clock';
import { AppError, type ErrorCode, type ErrorDetail } from '../../shared/errors';
import { keyedDigest } from '../../shared/secrets';
import type { TokenLimitReached } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { tokenPeriod } from '../../shared/token-periods';
import type { TokenGrant } from '../http/context';

const LIMIT_CODES: Readonly<Record<TokenLimitReached, ErrorCode>> = {
  downloads: 'TOKEN_DOWNLOAD_LIMIT_REACHED',
  clients: 'TOKEN_CLIENT_LIMIT_REACHED',
  bytes: 'TOKEN_BYTE_LIMIT_REACHED',
};
const LIMIT_NAMES: Readonly<Record<TokenLimitReached, 'maxDownloads' | 'maxClients' | 'maxBytes'>> = { downloads: 'maxDownloads', clients: 'maxClients', bytes: 'maxBytes' };

/** Hex characters kept of a client address's keyed hash: 128 bits tell addresses apart. */
const CLIENT_HASH_LENGTH = 32;

/**
 * Counts a download made with an access token against its limits, in the store, in one conditional
 * write (exact across gateways), before the download is answered. Refused: 403 naming the limit and
 * when the period ends, with nothing counted.
 */
export class TokenMeter {
  constructor(private readonly store: Store, private readonly clock: Clock) {}

  /**
   * Counts one download of `bytes` from `clientIp` (`downloads` 0: byte ranges of one, counted by
   * their bytes, refused once the downloads are spent); returns what gives it back (a download that
   * could not be recorded).
   */
  async count(grant: TokenGrant, bytes: number, clientIp: string | null, downloads: 0 | 1 = 1): Promise<() => Promise<void>> {
    const { record, clientKey } = grant;
    const period = tokenPeriod(record.resetEvery, record.createdAt, this.clock.now());
    const outcome = await this.store.accessTokens.countAccessTokenUse({
      tokenId: record.tokenId,
      periodStart: period.start,
      clientHash: keyedDigest(clientKey, clientIp ?? 'unknown').slice(0, CLIENT_HASH_LENGTH),
      downloads,
      bytes,
      maxDownloads: record.maxDownloads,
      maxClients: record.maxClients,
      maxBytes: record.maxBytes,
    });
    if (outcome.outcome === 'refused') throw limitReached(record, outcome.limit, period.end);
    return () => this.store.accessTokens.uncountAccessTokenUse(record.tokenId, period.start, bytes, downloads);
  }

  /**
   * Refuses (403, as `count` would) a token whose downloads or bytes are spent, counting nothing: what
   * a HEAD of a download asks, which is no download.
   */
  async check(grant: TokenGrant): Promise<void> {
    const { record } = grant;
    const period = tokenPeriod(record.resetEvery, record.createdAt, this.clock.now());
    const usage = await this.store.accessTokens.getAccessTokenUsage(record.tokenId, period.start);
    if (record.maxDownloads !== null && usage.downloads >= record.maxDownloads) throw limitReached(record, 'downloads', period.end);
    if (record.maxBytes !== null && usage.bytes >= record.maxBytes) throw limitReached(record, 'bytes', period.end);
  }
}

/** 403 naming the limit reached and when the token's counts start again. */
function limitReached(record: TokenGrant['record'], limit: TokenLimitReached, periodEnd: Date | null): AppError {
  const name = LIMIT_NAMES[limit];
  const when = periodEnd ? `; its counts start again at ${periodEnd.toISOString()}` : '; its counts do not start again';
  const details: ErrorDetail[] = [{ field: name, message: `${String(record[name])} reached` }];
  if (periodEnd) details.push({ field: 'resetsAt', message: periodEnd.toISOString() });
  return new AppError(403, LIMIT_CODES[limit], `this access token has reached its ${name}${when}`, details, periodEnd ?? undefined);
}
