import type { Connection } from 'mongoose';
import { dailyCountSchema, eventSchema, rollupBatchSchema } from './schemas/activity';
import { adoptionCountSchema, checkEventSchema, checkRollupBatchSchema, customerVersionSchema, installOfferSchema, rolloutPlanSchema, updateReportSchema } from './schemas/adoption';
import { shareLinkSchema, uploadSessionSchema } from './schemas/uploads-and-links';
import { accessTokenSchema, accessTokenUsageSchema, adminKeySchema, apiKeySchema, customerSchema } from './schemas/accounts';
import { attestationKeySchema, attestationSchema } from './schemas/attestations';
import { auditEntrySchema } from './schemas/audit';
import { applicationSchema, fileSchema, licenceAcceptanceSchema, repositoryKeyRingSchema, versionSchema } from './schemas/catalog';
import { tufRepositorySchema, tufRootSchema } from './schemas/tuf';
import { webhookOutboxSchema, webhookDeliverySchema, webhookEndpointSchema } from './schemas/webhooks';

/** The store's models, bound to one dedicated connection rather than mongoose's global default. */
export function bindModels(connection: Connection) {
  return {
    applications: connection.model('Application', applicationSchema),
    licenceAcceptances: connection.model('LicenceAcceptance', licenceAcceptanceSchema),
    repositoryKeys: connection.model('RepositoryKeyRing', repositoryKeyRingSchema),
    versions: connection.model('Version', versionSchema),
    files: connection.model('File', fileSchema),
    customers: connection.model('Customer', customerSchema),
    apiKeys: connection.model('ApiKey', apiKeySchema),
    adminKeys: connection.model('AdminKey', adminKeySchema),
    accessTokens: connection.model('AccessToken', accessTokenSchema),
    accessTokenUsage: connection.model('AccessTokenUsage', accessTokenUsageSchema),
    auditLog: connection.model('AuditEntry', auditEntrySchema),
    uploadSessions: connection.model('UploadSession', uploadSessionSchema),
    shareLinks: connection.model('ShareLink', shareLinkSchema),
    events: connection.model('Event', eventSchema),
    dailyCounts: connection.model('DailyCount', dailyCountSchema),
    rollupBatches: connection.model('RollupBatch', rollupBatchSchema),
    checkEvents: connection.model('CheckEvent', checkEventSchema),
    checkRollupBatches: connection.model('CheckRollupBatch', checkRollupBatchSchema),
    adoptionCounts: connection.model('AdoptionCount', adoptionCountSchema),
    customerVersions: connection.model('CustomerVersion', customerVersionSchema),
    installOffers: connection.model('InstallOffer', installOfferSchema),
    rolloutPlans: connection.model('RolloutPlan', rolloutPlanSchema),
    updateReports: connection.model('UpdateReport', updateReportSchema),
    webhookEndpoints: connection.model('WebhookEndpoint', webhookEndpointSchema),
    webhookDeliveries: connection.model('WebhookDelivery', webhookDeliverySchema),
    webhookOutbox: connection.model('WebhookOutboxEntry', webhookOutboxSchema),
    tufRepositories: connection.model('TufRepository', tufRepositorySchema),
    tufRoots: connection.model('TufRoot', tufRootSchema),
    attestationKeys: connection.model('AttestationKey', attestationKeySchema),
    attestations: connection.model('Attestation', attestationSchema),
  };
}

export type MongoModels = ReturnType<typeof bindModels>;
