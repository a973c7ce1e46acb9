import type { GatewayDeps } from './gateway-deps';
import { AttestationService } from './attestations/attestation-service';
import { DownloadService } from './downloads/download-service';
import { LicenceGate } from './downloads/licence-gate';
import { ShareLinkService } from './downloads/share-link-service';
import { TokenMeter } from './downloads/token-meter';
import { AccessTokenService } from './customers/access-token-service';
import { AdminKeyService } from './admin-keys/admin-key-service';
import { ApplicationService } from './applications/application-service';
import { LogoService } from './applications/logo-service';
import { ReleasePurgeService } from './applications/release-purge-service';
import { AuditService } from './admin-keys/audit-service';
import { CustomerService } from './customers/customer-service';
import { MultipartUploadService } from './uploads/multipart-upload-service';
import { StatisticsService } from './statistics/statistics-service';
import { AdoptionService } from './statistics/adoption-service';
import { UploadService } from './uploads/upload-service';
import { VersionService } from './applications/version-service';
import { WebhookService } from './webhooks/webhook-service';
import { SignatureTexts } from './updates/signature-texts';
import { UpdateCheckRecorder } from './updates/update-check-recorder';
import { FeedAnswers } from './updates/engine/feed-answers';
import { FeedFileLinks } from './updates/engine/feed-file-links';
import { SquirrelMacAnswers } from './updates/squirrel-mac/squirrel-mac-answers';
import { repositoryKeySecret, webhookSecretKey } from '../shared/runtime/local-secrets';
import { RepositoryKeys } from './repos/repository-keys';
import { FileObjects } from '../shared/uploads/file-objects';
import { KeyLocks } from '../shared/redis/key-locks';
import { FILE_OBJECT_LOCK_SECONDS, FILE_OBJECT_LOCK_WAIT_MS } from '../shared/policy';
import { AptRepository } from './repos/apt-repository';
import { RpmRepository } from './repos/rpm-repository';
import { RepositoryAnswers } from './repos/repo-answers';
import { TufAnswers } from './tuf/tuf-answers';
import { openTufRepositories } from '../shared/runtime/tuf-repositories';

/**
 * Every service the gateway's routes call, each built once per process: route modules declare
 * routes and build nothing, so a cache a service holds (the download answers, the update feeds'
 * documents, the signature texts) exists once.
 */
export interface GatewayServices {
  applications: ApplicationService;
  logos: LogoService;
  versions: VersionService;
  /** The purge of a soft-deleted application's releases. */
  releasePurges: ReleasePurgeService;
  uploads: UploadService;
  multipartUploads: MultipartUploadService;
  customers: CustomerService;
  /** Webhook endpoints and their deliveries (deps.webhooks announces events). */
  webhookEndpoints: WebhookService;
  adminKeys: AdminKeyService;
  accessTokens: AccessTokenService;
  audit: AuditService;
  statistics: StatisticsService;
  adoption: AdoptionService;
  downloads: DownloadService;
  /** The licence gate every customer download passes, and licence acceptances. */
  licences: LicenceGate;
  shareLinks: ShareLinkService;
  /** Records every answered update check (the adoption figures' events). */
  updateChecks: UpdateCheckRecorder;
  /** The one step every update feed is answered by (gateway/updates/engine/). */
  feedAnswers: FeedAnswers;
  /** The files and packages the feeds link to. */
  feedFileLinks: FeedFileLinks;
  /** Squirrel.Mac's check, whose answer is the download. */
  squirrelMacAnswers: SquirrelMacAnswers;
  /** The package repositories' signing keys (generated on first use, imported, rotated). */
  repositoryKeys: RepositoryKeys;
  /** What the package repositories' routes answer (apt, dnf). */
  repositoryAnswers: RepositoryAnswers;
  /** Provenance attestations of files and the keys that verify them. */
  attestations: AttestationService;
  /** What the TUF repositories' routes answer, and the vendor's roots. */
  tufAnswers: TufAnswers;
}

/** The one place the gateway's services are built. */
export function buildGatewayServices(deps: GatewayDeps): GatewayServices {
  const { config } = deps;
  const applications = new ApplicationService(deps.store, deps.catalogCache, deps.webhooks, deps.jobs);
  // One read of each signature file per process, for every feed that serves signatures.
  const signatures = new SignatureTexts(deps.storage);
  const audit = new AuditService(deps.store, deps.logger);
  const licences = new LicenceGate(deps.store, deps.bus, audit);
  const fileObjects = new FileObjects(deps.store, deps.storage, new KeyLocks(deps.redis, config.redisPrefix, FILE_OBJECT_LOCK_SECONDS, FILE_OBJECT_LOCK_WAIT_MS));
  const downloads = new DownloadService(deps.releaseCatalog, deps.storage, deps.distributionEvents, deps.cacheLookups, new TokenMeter(deps.store, deps.clock), licences);
  const services = {
    applications,
    logos: new LogoService(deps.store, deps.storage, applications, deps.logger),
    versions: new VersionService(deps.store, applications, deps.webhooks, fileObjects, deps.logger),
    releasePurges: new ReleasePurgeService(deps.store, config, deps.jobs),
    attestations: new AttestationService(deps.store, config.sigstoreTrustedRoot),
    uploads: new UploadService(deps.store, deps.storage, fileObjects, deps.hashing, deps.jobs, deps.distributionEvents, deps.webhooks, applications, config.uploadUrlTtlSeconds, deps.logger),
    // Part URLs live as long as a large upload's URL, and never past the session.
    multipartUploads: new MultipartUploadService(deps.store, deps.storage, deps.jobs, applications, {
      sessionSeconds: config.multipartUploadTtlSeconds,
      partUrlSeconds: config.uploadUrlTtlSeconds,
    }, deps.logger),
    customers: new CustomerService(deps.store, deps.keyCache, deps.webhooks),
    webhookEndpoints: new WebhookService(deps.store, deps.signingSecrets, deps.jobs, deps.bus, config.webhooks.retryBaseMs),
    adminKeys: new AdminKeyService(deps.store, deps.adminKeys),
    accessTokens: new AccessTokenService(deps.store, deps.accessTokens, deps.clock, deps.webhooks),
    audit,
    statistics: new StatisticsService(deps.store),
    adoption: new AdoptionService(deps.store, config.channels),
    downloads,
    licences,
    shareLinks: new ShareLinkService(deps.store, deps.keyCache, deps.bus, downloads, deps.jobs, deps.webhooks, deps.logger, deps.cacheLookups),
    // Install hashes are keyed from the server secret (WEBHOOK_SECRET_KEY, else DATA_DIR's), read at the first check.
    updateChecks: new UpdateCheckRecorder(deps.distributionEvents, () => webhookSecretKey(config.webhooks.secretKeyHex, config.dataDir), deps.logger, config.recordUpdateChecks),
  };
  // Sealed under REPOSITORY_KEY_SECRET, else DATA_DIR's generated key, read when a key is first needed.
  const repositoryKeys = new RepositoryKeys(deps.store, deps.catalogCache, () => repositoryKeySecret(config.repositoryKeySecretHex, config.dataDir));
  const tufRepositories = openTufRepositories(deps.store, config, () => new Date(deps.clock.now()));
  // The feeds' answers, over the feeds and the check recorder above: what the update routes call.
  return {
    tufAnswers: new TufAnswers(deps.store, tufRepositories, deps.releaseCatalog, downloads, deps.clock),
    repositoryKeys,
    repositoryAnswers: new RepositoryAnswers(deps.releaseCatalog, repositoryKeys, new AptRepository(deps.releaseCatalog, repositoryKeys),
      new RpmRepository(deps.releaseCatalog, repositoryKeys), downloads, config.publicBaseUrl),
    ...services,
    feedAnswers: new FeedAnswers(deps.releaseCatalog, services.updateChecks, { signatures, versions: deps.catalogCache }, config.publicBaseUrl),
    feedFileLinks: new FeedFileLinks(deps.releaseCatalog, downloads),
    squirrelMacAnswers: new SquirrelMacAnswers(deps.releaseCatalog, downloads, services.updateChecks),
  };
}
