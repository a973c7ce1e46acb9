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
    if (outcome.outcome === 'refused') {
      const name = LIMIT_NAMES[outcome.limit];
      const when = period.end ? `; its counts start again at ${period.end.toISOString()}` : '; its counts do not start again';
      const details: ErrorDetail[] = [{ field: name, message: `${String(record[name])} reached` }];
      if (period.end) details.push({ field: 'resetsAt', message: period.end.toISOString() });
      throw new AppError(403, LIMIT_CODES[outcome.limit], `this access token has reached its ${name}${when}`, details, period.end ?? undefined);
    }
    return () => this.store.accessTokens.uncountAccessTokenUse(record.tokenId, period.start, bytes, downloads);
  }
}
