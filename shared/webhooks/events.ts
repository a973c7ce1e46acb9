import { z, type ZodTypeAny } from 'zod';
import { accessTokenResponse, presentAccessToken } from '../contract/access-tokens';
import { applicationResponse, presentApplication } from '../contract/applications';
import { apiKeyResponse, customerResponse, presentApiKey, presentCustomer } from '../contract/customers';
import { presentShareLink, shareLinkResponse } from '../contract/downloads';
import { rolloutAdvancedData, rolloutHaltedData } from '../contract/rollouts';
import { activityResponse, presentActivity } from '../contract/statistics';
import { presentUploadSession, uploadSessionResponse } from '../contract/uploads';
import { presentUploadedFile, presentVersion, uploadedFileResponse, versionResponse } from '../contract/versions';
import type { FileRecord, UploadSession, Version, VersionWithFiles } from '../store/models';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types';

/**
 * The events webhooks can subscribe to, and the `data` of each. A payload is
 * `{"type": <event type>, "timestamp": <ISO 8601>, "data": <below>}` (the Standard Webhooks shape).
 * Each `data` is what the API answers for the same resource, shaped by the same presenters
 * (shared/contract/), so secrets never appear in one: a key is named by its id and prefix, a share
 * link by what it points at.
 */
export { WEBHOOK_EVENT_TYPES, type WebhookEventType };

/** The file as its upload answers it, and the upload's id (null for a small upload, which has no session). */
export const uploadCompletedData = uploadedFileResponse.extend({ uploadId: z.string().nullable() });

/**
 * The schema of each event's `data`: a version event carries the version as the versions listing
 * answers it (with its files), upload.failed the upload as GET of it answers, a customer, key or
 * share link what its own answers show, download.recorded the activity feed's entry.
 */
export const WEBHOOK_EVENT_DATA = {
  'upload.completed': uploadCompletedData,
  'upload.failed': uploadSessionResponse,
  'version.published': versionResponse,
  'version.yanked': versionResponse,
  /** A draft deleted with its files: the version as it was. */
  'version.deleted': versionResponse,
  /** A rollout plan took a step: the percentages and the health figures it was taken on. */
  'version.rollout_advanced': rolloutAdvancedData,
  /** A rollout plan halted: the percentage it stays at, why, and the figures. */
  'version.rollout_halted': rolloutHaltedData,
  'application.deleted': applicationResponse,
  'customer.created': customerResponse,
  'customer.updated': customerResponse,
  /** The customer as it was; its keys and share links are revoked and its activity anonymised. */
  'customer.deleted': customerResponse,
  'apikey.created': apiKeyResponse,
  'apikey.revoked': apiKeyResponse,
  'access_token.created': accessTokenResponse,
  'access_token.revoked': accessTokenResponse,
  'share_link.created': shareLinkResponse,
  'download.recorded': activityResponse,
} as const satisfies Record<WebhookEventType, ZodTypeAny>;

export type WebhookEventData = { [T in WebhookEventType]: z.input<(typeof WEBHOOK_EVENT_DATA)[T]> };

/** The data of each event, from the records it is about: pure, so it can be built and stored with the change. */
export const webhookData = {
  uploadCompleted: (file: FileRecord, version: VersionWithFiles, uploadId: string | null): WebhookEventData['upload.completed'] =>
    ({ uploadId, ...presentUploadedFile(file, version, null) }),
  /** A failed upload session, with its failureReason. */
  uploadFailed: (session: UploadSession): WebhookEventData['upload.failed'] => presentUploadSession(session, null, null),
  // An event's data is built from the version alone: the feed problems that depend on the application's keys are left out.
  version: (version: Parameters<typeof presentVersion>[0]) => presentVersion(version, null),
  applicationDeleted: presentApplication,
  customer: presentCustomer,
  apiKey: presentApiKey,
  accessToken: presentAccessToken,
  shareLinkCreated: presentShareLink,
  downloadRecorded: presentActivity,
} satisfies Record<string, (...records: never[]) => WebhookEventData[WebhookEventType]>;

/**
 * True when a version became published by the change made at `at`: it was first published then.
 * An upload creating a version publishes it; an upload into an existing version does not.
 */
export function firstPublishedAt(version: Version, at: Date): boolean {
  return version.status === 'published' && version.publishedAt?.getTime() === at.getTime();
}
