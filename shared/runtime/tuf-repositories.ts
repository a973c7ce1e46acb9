import type { Config } from '../config';
import { TUF_SNAPSHOT_EXPIRY_SECONDS, TUF_TARGETS_EXPIRY_SECONDS } from '../policy';
import type { Store } from '../store/store';
import { TufRepositories } from '../tuf/tuf-repositories';
import { webhookSecretKey } from './local-secrets';

/**
 * The repositories as a process opens them (the gateway and the workers alike): online keys sealed
 * under the key that seals webhook secrets (WEBHOOK_SECRET_KEY, else DATA_DIR's), the configured
 * channels and timestamp lifetime, and the process's clock.
 */
export function openTufRepositories(
  store: Store,
  config: Pick<Config, 'webhooks' | 'dataDir' | 'channels' | 'tufTimestampExpirySeconds'>,
  clock: () => Date = () => new Date(),
): TufRepositories {
  return new TufRepositories(store, webhookSecretKey(config.webhooks.secretKeyHex, config.dataDir), config.channels, {
    targets: TUF_TARGETS_EXPIRY_SECONDS, snapshot: TUF_SNAPSHOT_EXPIRY_SECONDS, timestamp: config.tufTimestampExpirySeconds,
  }, clock);
}
