/**
 * The SQLite store's migrations, one file each, numbered in order: migration n brings a database from
 * user_version n - 1 to n. A file, once released, is never edited: changes are new files.
 */
import type { Migration } from './migration';
import { migration as firstSchema } from './01-first-schema';
import { migration as releaseModel } from './02-release-model';
import { migration as webhooks } from './03-webhooks';
import { migration as adminKeysAndAuditLog } from './04-admin-keys-and-audit-log';
import { migration as multipartUploads } from './05-multipart-uploads';
import { migration as shareLinkCaps } from './06-share-link-caps';
import { migration as unqueuedWebhookEvents } from './07-unqueued-webhook-events';
import { migration as updateSigningKeys } from './08-update-signing-keys';
import { migration as webhookOutbox } from './09-webhook-outbox';
import { migration as rekeyVersions } from './10-rekey-versions';
import { migration as signatureProblems } from './11-signature-problems';
import { migration as defaultVersionStatus } from './12-default-version-status';
import { migration as sparkleFields } from './13-sparkle-fields';
import { migration as customerSearchAndShareLinkListing } from './14-customer-search-and-share-link-listing';
import { migration as auditActorAndTargetFeeds } from './15-audit-actor-and-target-feeds';
import { migration as accessTokens } from './16-access-tokens';
import { migration as licenceAcceptances } from './17-licence-acceptances';
import { migration as applicationBranding } from './18-application-branding';
import { migration as fileSha1 } from './19-file-sha1';
import { migration as yankReasons } from './20-yank-reasons';
import { migration as updateChecks } from './21-update-checks';
import { migration as downloadBreakdowns } from './22-download-breakdowns';
import { migration as applicationLogos } from './23-application-logos';
import { migration as acceptancesByCustomer } from './24-acceptances-by-customer';
import { migration as checkWindows } from './25-check-windows';
import { migration as releasePurges } from './26-release-purges';
import { migration as tufRepositories } from './27-tuf-repositories';
import { migration as packageRepositories } from './28-package-repositories';
import { migration as attestations } from './29-attestations';
import { migration as maintenanceWindows } from './30-maintenance-windows';
import { migration as rollbacks } from './31-rollbacks';
import { migration as updateFunnel } from './32-update-funnel';
import { migration as fileObjects } from './33-file-objects';
import { migration as releaseDownloads } from './34-release-downloads';
import { migration as updateReportRetention } from './35-update-report-retention';
import { migration as auditDetails } from './36-audit-details';
import { migration as signingKeyHistory } from './37-signing-key-history';

export const MIGRATIONS: readonly Migration[] = [
  firstSchema,
  releaseModel,
  webhooks,
  adminKeysAndAuditLog,
  multipartUploads,
  shareLinkCaps,
  unqueuedWebhookEvents,
  updateSigningKeys,
  webhookOutbox,
  rekeyVersions,
  signatureProblems,
  defaultVersionStatus,
  sparkleFields,
  customerSearchAndShareLinkListing,
  auditActorAndTargetFeeds,
  accessTokens,
  licenceAcceptances,
  applicationBranding,
  fileSha1,
  yankReasons,
  updateChecks,
  downloadBreakdowns,
  applicationLogos,
  acceptancesByCustomer,
  checkWindows,
  releasePurges,
  tufRepositories,
  packageRepositories,
  attestations,
  maintenanceWindows,
  rollbacks,
  updateFunnel,
  fileObjects,
  releaseDownloads,
  updateReportRetention,
  auditDetails,
  signingKeyHistory,
];
