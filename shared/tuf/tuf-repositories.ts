import { Metadata, MetadataKind, type Root } from '@tufjs/models';
import type { Config } from '../config';
import { TUF_SNAPSHOT_EXPIRY_SECONDS, TUF_TARGETS_EXPIRY_SECONDS } from '../policy';
import { webhookSecretKey } from '../runtime/local-secrets';
import { openSecret, sealSecret } from '../secrets';
import type { TufRepositoryRecord, TufRootRecord, TufStoredKey } from '../store/models';
import type { Store } from '../store/store';
import { generateTufKey, type TufKeyPair } from './keys';
import { signRepository, type TufExpiries, type TufOnlineKeys, type TufOnlineMetadata, type TufTarget } from './repository';
import { checkUploadedRoot, type TufOnlinePublicKeys } from './root';

const ONLINE_ROLES = ['targets', 'snapshot', 'timestamp'] as const;

/** A root the service does not keep, and why (the API's 422, or 409 when another took its version). */
export class TufRootRefused extends Error {
  constructor(message: string, readonly conflict = false) {
    super(message);
  }
}

/** How many times a signer that lost a race to another signs again from what won. */
const SIGNING_ATTEMPTS = 5;

/**
 * Applications' TUF repositories over the store: the online keys, made once per application and kept
 * sealed (the sealing key stays outside the store, and each key is bound to its application and role);
 * the vendor's roots, checked before they are kept; and the online metadata, signed again from the
 * published files whenever they change and before the timestamp expires.
 */
export class TufRepositories {
  constructor(
    private readonly store: Store,
    private readonly sealingKey: Buffer,
    private readonly channels: readonly string[],
    private readonly expiries: TufExpiries,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The application's repository, made with fresh online keys the first time. */
  async ensure(applicationId: string): Promise<TufRepositoryRecord> {
    const existing = await this.store.tuf.findTufRepository(applicationId);
    if (existing) return existing;
    const now = this.clock();
    const seal = (role: string, key: TufKeyPair): TufStoredKey => ({
      keyId: key.keyId,
      publicKey: key.publicKey,
      sealedPrivateKey: sealSecret(this.sealingKey, key.privateKey, sealingContext(applicationId, role)),
    });
    return this.store.tuf.createTufRepository({
      applicationId,
      keys: { targets: seal('targets', generateTufKey()), snapshot: seal('snapshot', generateTufKey()), timestamp: seal('timestamp', generateTufKey()) },
      metadata: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** The public halves of the online keys, which the vendor's root names. */
  async onlinePublicKeys(applicationId: string): Promise<TufOnlinePublicKeys> {
    const { keys } = await this.ensure(applicationId);
    return {
      targets: { keyId: keys.targets.keyId, publicKey: keys.targets.publicKey },
      snapshot: { keyId: keys.snapshot.keyId, publicKey: keys.snapshot.publicKey },
      timestamp: { keyId: keys.timestamp.keyId, publicKey: keys.timestamp.publicKey },
    };
  }

  /**
   * Keeps a root the vendor signed: checked against the latest kept (the next version, signed by the
   * previous root's keys as well as its own) and against the service's online keys; then the online
   * metadata is signed. Throws TufRootRefused, keeping nothing, otherwise.
   */
  async uploadRoot(applicationId: string, candidate: unknown): Promise<TufRootRecord> {
    const online = await this.onlinePublicKeys(applicationId);
    const latest = await this.store.tuf.latestTufRoot(applicationId);
    const previous = latest ? Metadata.fromJSON(MetadataKind.Root, JSON.parse(latest.document)) : undefined;
    let root: Metadata<Root>;
    try {
      root = checkUploadedRoot(candidate, previous, online);
    } catch (error) {
      throw new TufRootRefused((error as Error).message);
    }
    const record: TufRootRecord = { applicationId, version: root.signed.version, document: JSON.stringify(root.toJSON()), createdAt: this.clock() };
    if (!(await this.store.tuf.addTufRoot(record))) throw new TufRootRefused(`root version ${record.version} is kept already`, true);
    await this.resign(applicationId);
    return record;
  }

  /**
   * Signs what is due (shared/tuf/repository.ts `signRepository`) from the application's published
   * files and keeps it; null while the vendor has uploaded no root. Of signers racing, each signs again
   * from what the winner kept, so versions never repeat.
   */
  async resign(applicationId: string): Promise<TufOnlineMetadata | null> {
    if (!(await this.store.tuf.latestTufRoot(applicationId))) return null;
    const repository = await this.ensure(applicationId);
    const keys = this.openKeys(repository);
    const targets = await this.publishedTargets(applicationId);
    let previous = repository.metadata ?? undefined;
    for (let attempt = 0; attempt < SIGNING_ATTEMPTS; attempt += 1) {
      const now = this.clock();
      const next = signRepository({ previous, targets, channels: this.channels, keys, expiries: this.expiries, now });
      if (previous && next.timestamp === previous.timestamp) return previous;
      if (await this.store.tuf.replaceTufMetadata(applicationId, previous?.timestamp ?? null, next, now)) return next;
      previous = (await this.store.tuf.findTufRepository(applicationId))?.metadata ?? undefined;
    }
    throw new Error(`the TUF metadata of ${applicationId} kept changing while it was signed`);
  }

  /** The targets: every available file, with both digests, of the application's published versions. */
  async publishedTargets(applicationId: string): Promise<TufTarget[]> {
    const versions = await this.store.versions.listVersions(applicationId, { statuses: ['published'] });
    const targets: TufTarget[] = [];
    for (const version of versions) {
      for (const file of version.files) {
        // A file stored before SHA-512s were kept is listed once the digest backfill has given it one.
        if (file.status !== 'available' || !file.checksum || !file.sha512) continue;
        targets.push({
          version: version.version,
          fileName: file.fileName,
          length: file.fileSize,
          sha256: file.checksum.replace(/^sha256:/, ''),
          sha512: Buffer.from(file.sha512, 'base64').toString('hex'),
          platform: file.platform ?? 'any',
          arch: file.arch ?? 'any',
          channel: version.channel,
          fileType: file.fileType,
        });
      }
    }
    return targets;
  }

  private openKeys(repository: TufRepositoryRecord): TufOnlineKeys {
    const open = (role: (typeof ONLINE_ROLES)[number]): TufKeyPair => {
      const key = repository.keys[role];
      return { keyId: key.keyId, publicKey: key.publicKey, privateKey: openSecret(this.sealingKey, key.sealedPrivateKey, sealingContext(repository.applicationId, role)) };
    };
    return { targets: open('targets'), snapshot: open('snapshot'), timestamp: open('timestamp') };
  }
}

/** What a sealed online key is bound to: opened under another application or role, it does not open. */
function sealingContext(applicationId: string, role: string): string {
  return `tuf-online-key:${applicationId}:${role}`;
}

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
