import type { FailureHandlerRegistry, ProcessorRegistry } from '../processor';
import { backfillFileDigests } from './backfill-file-digests';
import { expireUploadSessions } from './expire-upload-sessions';
import { purgeApplicationReleases } from './purge-application-releases';
import { recheckUpdateSignatures } from './recheck-update-signatures';
import { resignTufMetadata } from './resign-tuf-metadata';
import { rollupEvents } from './rollup-events';
import { stepRolloutPlan, sweepRolloutPlans } from './rollout-plans';
import { foldUpdateFunnel, purgeCheckEvents, purgeUpdateReports, rollupUpdateChecks } from './rollup-update-checks';
import { expireShareLink, purgeShareLinks } from './share-links';
import { settleFailedVerification, verifyUpload } from './verify-upload';
import { deliverWebhook, dispatchWebhookEvent, purgeWebhookDeliveries, relayWebhookOutbox, settleFailedDelivery } from './webhooks';

export const PROCESSORS: ProcessorRegistry = {
  'verify-upload': verifyUpload,
  'expire-upload-sessions': expireUploadSessions,
  'expire-share-link': expireShareLink,
  'purge-share-links': purgeShareLinks,
  'rollup-events': rollupEvents,
  'rollup-update-checks': rollupUpdateChecks,
  'fold-update-funnel': foldUpdateFunnel,
  'sweep-rollout-plans': sweepRolloutPlans,
  'step-rollout-plan': stepRolloutPlan,
  'purge-check-events': purgeCheckEvents,
  'purge-update-reports': purgeUpdateReports,
  'dispatch-webhook-event': dispatchWebhookEvent,
  'deliver-webhook': deliverWebhook,
  'purge-webhook-deliveries': purgeWebhookDeliveries,
  'relay-webhook-outbox': relayWebhookOutbox,
  'backfill-file-digests': backfillFileDigests,
  'recheck-update-signatures': recheckUpdateSignatures,
  'purge-application-releases': purgeApplicationReleases,
  'resign-tuf-metadata': resignTufMetadata,
};

/**
 * A verification that ends failed must not leave its upload `verifying` and its file name held, nor a
 * delivery whose job ended failed stay `pending` in the log.
 */
export const FAILURE_HANDLERS: FailureHandlerRegistry = {
  'verify-upload': settleFailedVerification,
  'deliver-webhook': settleFailedDelivery,
};

