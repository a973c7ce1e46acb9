import type { WebhookOutboxEntry } from '../store/models';
import type { Store } from '../store/store';
import { webhookData, type WebhookEventType } from './events';
import { versionWithFiles } from './version-with-files';

/**
 * The data of a pending entry's event when its change is in the store; null when it is not (yet).
 * `known`: the data the entry was written with, for a deletion, whose record is gone once it happened.
 */
type Recovery = (store: Store, subject: readonly string[], at: Date, known: unknown) => Promise<unknown>;

const atOrAfter = (date: Date | null, at: Date): boolean => date !== null && date.getTime() >= at.getTime();

/**
 * How the relay checks the change of an entry left pending (its writer died or failed between the
 * change and its queueing): each event type's record, found by the entry's subject, shows the change
 * by the time it wrote (`at`) or the state it set. A change found gives the event its data from the
 * record as it stands now; a record changed again since carries the later change (which announces
 * itself too). Kept in step with the announcements' subjects in the services.
 */
const RECOVERIES: { readonly [T in WebhookEventType]: Recovery } = {
  'customer.created': async (store, [customerId], at) => {
    const customer = await store.accounts.getCustomer(customerId);
    return customer && customer.createdAt.getTime() === at.getTime() ? webhookData.customer(customer) : null;
  },
  'customer.updated': async (store, [customerId], at) => {
    const customer = await store.accounts.getCustomer(customerId);
    return customer && atOrAfter(customer.updatedAt, at) ? webhookData.customer(customer) : null;
  },
  'apikey.created': async (store, [keyHash], at) => {
    const key = await store.accounts.findApiKeyByHash(keyHash);
    return key && key.createdAt.getTime() === at.getTime() ? webhookData.apiKey(key) : null;
  },
  'apikey.revoked': async (store, [keyHash]) => {
    const key = await store.accounts.findApiKeyByHash(keyHash);
    return key && key.revokedAt !== null ? webhookData.apiKey(key) : null;
  },
  'access_token.created': async (store, [tokenHash], at) => {
    const token = await store.accessTokens.findAccessTokenByHash(tokenHash);
    return token && token.createdAt.getTime() === at.getTime() ? webhookData.accessToken(token) : null;
  },
  'access_token.revoked': async (store, [tokenHash]) => {
    const token = await store.accessTokens.findAccessTokenByHash(tokenHash);
    return token && token.revokedAt !== null ? webhookData.accessToken(token) : null;
  },
  'application.deleted': async (store, [applicationId], at) => {
    const application = await store.applications.getApplication(applicationId, { includeDeleted: true });
    return application && atOrAfter(application.deletedAt, at) ? webhookData.applicationDeleted(application) : null;
  },
  // An upload announces only the version it first published (subject [application, version, 'first']).
  'version.published': async (store, [applicationId, version, first], at) => {
    const found = await store.versions.getVersion(applicationId, version);
    if (found?.status !== 'published') return null;
    const changed = first === 'first' ? found.publishedAt?.getTime() === at.getTime() : atOrAfter(found.updatedAt, at);
    return changed ? webhookData.version(await versionWithFiles(store, found, [])) : null;
  },
  // A deletion's entry holds the record as it was: the change happened when the record is gone.
  'version.deleted': async (store, [applicationId, version], _at, known) => ((await store.versions.getVersion(applicationId, version)) ? null : known),
  'customer.deleted': async (store, [customerId], _at, known) => ((await store.accounts.getCustomer(customerId)) ? null : known),
  'version.yanked': async (store, [applicationId, version], at) => {
    const found = await store.versions.getVersion(applicationId, version);
    return found?.status === 'yanked' && atOrAfter(found.updatedAt, at) ? webhookData.version(await versionWithFiles(store, found, [])) : null;
  },
  'share_link.created': async (store, [tokenHash]) => {
    const link = await store.shareLinks.getShareLink(tokenHash);
    return link ? webhookData.shareLinkCreated(link) : null;
  },
  'upload.completed': async (store, [fileId, uploadId]) => {
    const file = await store.versions.getFile(fileId);
    const version = file?.status === 'available' ? await store.versions.getVersion(file.applicationId, file.version) : null;
    return file && version ? webhookData.uploadCompleted(file, await versionWithFiles(store, version, [file]), uploadId || null) : null;
  },
  'upload.failed': async (store, [uploadId]) => {
    const session = await store.uploads.getUploadSession(uploadId);
    return session?.status === 'failed' ? webhookData.uploadFailed(session) : null;
  },
  // A rollout decision's data is known before its change: the change happened when the plan shows it.
  'version.rollout_advanced': async (store, [applicationId, version, step], _at, known) => {
    const plan = await store.rolloutPlans.getRolloutPlan(applicationId, version);
    return plan && plan.step >= Number(step) ? known : null;
  },
  'version.rollout_halted': async (store, [applicationId, version], at, known) => {
    const plan = await store.rolloutPlans.getRolloutPlan(applicationId, version);
    return plan?.haltedAt?.getTime() === at.getTime() ? known : null;
  },
  'download.recorded': async (store, [eventId]) => {
    const event = await store.activity.getEvent(eventId);
    return event ? webhookData.downloadRecorded(event) : null;
  },
};

/** The data of a pending entry's event, or null when its change is not in the store. */
export async function recoverAnnouncedData(store: Store, entry: WebhookOutboxEntry): Promise<unknown> {
  const recovery = RECOVERIES[entry.type as WebhookEventType] as Recovery | undefined;
  if (!recovery) return null;
  return recovery(store, entry.subject, entry.occurredAt, entry.data);
}
