import type { AccessTokenUsage, TokenLimitReached, TokenUse } from './models';

/**
 * The limit a use would pass given the period's counts, in the order both adapters check them;
 * null when it fits them all. A client already counted in the period is not counted again. A byte
 * range (no download counted) is refused as a download is once the downloads are spent.
 */
export function limitPassed(use: TokenUse, usage: AccessTokenUsage, knownClient: boolean): TokenLimitReached | null {
  if (use.maxDownloads !== null && usage.downloads >= use.maxDownloads) return 'downloads';
  if (use.maxClients !== null && !knownClient && usage.clients + 1 > use.maxClients) return 'clients';
  if (use.maxBytes !== null && usage.bytes + use.bytes > use.maxBytes) return 'bytes';
  return null;
}

