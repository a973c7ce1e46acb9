import type { GatewayDeps } from './gateway-deps';
import { DownloadService } from './downloads/download-service';
import { ShareLinkService } from './downloads/share-link-service';
import { AdminKeyService } from './services/admin-key-service';
import { ApplicationService } from './services/application-service';
import { AuditService } from './services/audit-service';
import { CustomerService } from './services/customer-service';
import { MultipartUploadService } from './services/multipart-upload-service';
import { StatisticsService } from './services/statistics-service';
import { AdoptionService } from './services/adoption-service';
import { UploadService } from './services/upload-service';
import { VersionService } from './services/version-service';
import { WebhookService } from './services/webhook-service';
import { SignatureTexts } from './updates/signature-texts';
import { UpdateFeeds } from './updates/update-feeds';
import { UpdateCheckRecorder } from './updates/update-check-recorder';
import { webhookSecretKey } from '../shared/runtime/local-secrets';

/**
 * Every service the gateway's routes call, each built once per process: route modules declare
 * routes and build nothing, so a cache a service holds (the download answers, the update feeds'
 * documents, the signature texts) exists once.
 */
export interface GatewayServices {
  applications: ApplicationService;
  versions: VersionService;
  uploads: UploadService;
  multipartUploads: MultipartUploadService;
  customers: CustomerService;
  /** Webhook endpoints and their deliveries (deps.webhooks announces events). */
  webhookEndpoints: WebhookService;
  adminKeys: AdminKeyService;
  audit: AuditService;
  statistics: StatisticsService;
  adoption: AdoptionService;
  downloads: DownloadService;
  shareLinks: ShareLinkService;
  updateFeeds: UpdateFeeds;
  /** Records every answered update check (the adoption figures' events). */
  updateChecks: UpdateCheckRecorder;
}

/** The one place the gateway's services are built. */
export function buildGatewayServices(deps: GatewayDeps): GatewayServices {
  const { config } = deps;
  const applications = new ApplicationService(deps.store, deps.catalogCache, deps.webhooks, deps.jobs);
  const downloads = new DownloadService(deps.releaseCatalog, deps.storage, deps.distributionEvents, deps.cacheLookups);
  return {
    applications,
    versions: new VersionService(deps.store, applications, deps.webhooks, deps.storage, deps.logger),
    uploads: new UploadService(deps.store, deps.storage, deps.hashing, deps.jobs, deps.distributionEvents, deps.webhooks, applications, config.uploadUrlTtlSeconds, deps.logger),
    // Part URLs live as long as a large upload's URL, and never past the session.
    multipartUploads: new MultipartUploadService(deps.store, deps.storage, deps.jobs, applications, {
      sessionSeconds: config.multipartUploadTtlSeconds,
      partUrlSeconds: config.uploadUrlTtlSeconds,
    }, deps.logger),
    customers: new CustomerService(deps.store, deps.keyCache, deps.webhooks),
    webhookEndpoints: new WebhookService(deps.store, deps.signingSecrets, deps.jobs, deps.bus, config.webhooks.retryBaseMs),
    adminKeys: new AdminKeyService(deps.store, deps.adminKeys),
    audit: new AuditService(deps.store, deps.logger),
    statistics: new StatisticsService(deps.store),
    adoption: new AdoptionService(deps.store, config.channels),
    downloads,
    shareLinks: new ShareLinkService(deps.store, deps.keyCache, deps.bus, downloads, deps.jobs, deps.webhooks, deps.logger, deps.cacheLookups),
    updateFeeds: new UpdateFeeds(deps.releaseCatalog, new SignatureTexts(deps.storage), config.publicBaseUrl),
    // Install hashes are keyed from the server secret (WEBHOOK_SECRET_KEY, else DATA_DIR's), read at the first check.
    updateChecks: new UpdateCheckRecorder(deps.distributionEvents, () => webhookSecretKey(config.webhooks.secretKeyHex, config.dataDir), deps.logger, config.recordUpdateChecks),
  };
}
