import { conflict, DuplicateError, notFound, validationError } from '../../shared/errors';
import { DEFAULT_UPLOAD_STATUS } from '../../shared/releases/lifecycle';
import type { Application, VersionWithFiles } from '../../shared/store/models';
import type { JobQueues } from '../../shared/queues/job-queues';
import type { ApplicationPatch, Page, Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import type { CatalogCache } from '../releases/catalog-cache';
import type { CreateApplicationRequest, ListApplicationsQuery, UpdateApplicationRequest } from '../../shared/contract/applications-requests';

/** Applications: creation, listing, updates and soft deletion. */
export class ApplicationService {
  constructor(private readonly store: Store, private readonly catalog: CatalogCache, private readonly webhooks: WebhookEvents, private readonly jobs: JobQueues) {}

  async create(input: CreateApplicationRequest): Promise<Application> {
    const customerIds = unique(input.customerIds ?? []);
    await this.checkCustomersExist(customerIds);
    const now = new Date();
    try {
      return await this.store.applications.createApplication({
        applicationId: input.applicationId,
        name: input.name,
        description: input.description ?? null,
        tags: unique(input.tags ?? []),
        customerIds,
        updateSigningKey: input.updateSigningKey ?? null,
        sparklePublicKey: input.sparklePublicKey ?? null,
        retiredSigningKeys: [],
        defaultVersionStatus: input.defaultVersionStatus ?? DEFAULT_UPLOAD_STATUS,
        // A licence starts at revision 1 unless the request names another.
        licenceText: input.licenceText ?? null,
        licenceRevision: input.licenceText ? input.licenceRevision ?? 1 : null,
        displayName: input.displayName ?? null,
        accentColour: input.accentColour ?? null,
        supportUrl: input.supportUrl ?? null,
        logo: null,
        isActive: true,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      });
    } catch (error) {
      if (error instanceof DuplicateError) throw conflict(`application ${input.applicationId} already exists`);
      throw error;
    }
  }

  list(query: ListApplicationsQuery): Promise<Page<Application>> {
    return this.store.applications.listApplications(query);
  }

  /** The application with its versions and files; soft-deleted ones only when asked for. */
  async get(applicationId: string, includeDeleted = false): Promise<{ application: Application; versions: VersionWithFiles[] }> {
    const application = await this.require(applicationId, includeDeleted);
    return { application, versions: await this.store.versions.listVersions(applicationId) };
  }

  async update(applicationId: string, request: UpdateApplicationRequest): Promise<Application> {
    let patch: ApplicationPatch = request;
    if (patch.customerIds) {
      patch = { ...patch, customerIds: unique(patch.customerIds) };
      await this.checkCustomersExist(patch.customerIds as string[]);
    }
    if (patch.tags) patch = { ...patch, tags: unique(patch.tags) };
    if (request.licenceText !== undefined || request.licenceRevision !== undefined) patch = { ...patch, ...licencePatch(await this.require(applicationId), request) };
    const updated = await this.change(applicationId, () => this.store.applications.updateApplication(applicationId, patch, new Date()));
    if (!updated) throw notFound(`application ${applicationId} not found`);
    // Published signatures are checked again under the keys now set. Queued whenever a request names
    // a key, changed or not, so repeating a request whose check Redis refused queues it.
    if (patch.updateSigningKey !== undefined || patch.sparklePublicKey !== undefined) await this.jobs.enqueue('recheck-update-signatures', { applicationId });
    return updated;
  }

  /**
   * Lets one customer download the application, leaving its other customers as they are: the next
   * download on any gateway sees it, as with an update of the whole list. Granting twice is no change.
   */
  async grant(applicationId: string, customerId: string): Promise<Application> {
    await this.require(applicationId);
    if ((await this.store.accounts.findMissingCustomers([customerId])).length > 0) throw notFound(`customer ${customerId} not found`);
    const granted = await this.change(applicationId, () => this.store.applications.grantApplicationAccess(applicationId, customerId, new Date()));
    if (!granted) throw notFound(`application ${applicationId} not found`);
    return granted;
  }

  /** Takes one customer's access away; a customer without it is no change, an unknown one a 404. */
  async revoke(applicationId: string, customerId: string): Promise<Application> {
    const application = await this.require(applicationId);
    if (!application.customerIds.includes(customerId) && (await this.store.accounts.findMissingCustomers([customerId])).length > 0) {
      throw notFound(`customer ${customerId} not found`);
    }
    const revoked = await this.change(applicationId, () => this.store.applications.revokeApplicationAccess(applicationId, customerId, new Date()));
    if (!revoked) throw notFound(`application ${applicationId} not found`);
    return revoked;
  }

  async softDelete(applicationId: string): Promise<Application> {
    const at = new Date();
    const deleted = await this.webhooks.announceChange(
      [{ type: 'application.deleted', subject: [applicationId], at }],
      () => this.change(applicationId, () => this.store.applications.softDeleteApplication(applicationId, at)),
      (application) => [application && webhookData.applicationDeleted(application)],
    );
    if (!deleted) throw notFound(`application ${applicationId} not found`);
    return deleted;
  }

  async restore(applicationId: string): Promise<Application> {
    const restored = await this.change(applicationId, () => this.store.applications.restoreApplication(applicationId, new Date()));
    if (restored) return restored;
    const existing = await this.store.applications.getApplication(applicationId);
    if (existing) throw conflict(`application ${applicationId} is not deleted`);
    if (await this.store.applications.releasePurgeStartedAt(applicationId)) throw conflict(`application ${applicationId} had its releases purged: it cannot be restored`);
    throw notFound(`application ${applicationId} not found`);
  }

  /**
   * Every write to an application, its versions or its files goes through here: the next download on
   * any gateway sees it, or it is refused with 503 and nothing is written.
   */
  change<T>(applicationId: string, write: () => Promise<T>): Promise<T> {
    return this.catalog.change(applicationId, write);
  }

  /** A live application, or 404 (soft-deleted applications count as missing unless included). */
  async require(applicationId: string, includeDeleted = false): Promise<Application> {
    const application = await this.store.applications.getApplication(applicationId, { includeDeleted });
    if (!application) throw notFound(`application ${applicationId} not found`);
    return application;
  }

  private async checkCustomersExist(customerIds: string[]): Promise<void> {
    if (customerIds.length === 0) return;
    const missing = await this.store.accounts.findMissingCustomers(customerIds);
    if (missing.length > 0) {
      throw validationError([{ field: 'customerIds', message: `unknown customers: ${missing.join(', ')}` }]);
    }
  }
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];

/**
 * The licence fields a PATCH writes. `licenceText: null` removes the licence (its revision is kept,
 * unseen, so revisions never go back). A
 * new text without a revision asks again (the revision after the stored one); a revision names the
 * one to ask for (the same revision keeps every acceptance: a typo fixed), never one below the
 * stored one (acceptances of it would count again); a revision alone needs a stored text.
 */
function licencePatch(current: Application, request: UpdateApplicationRequest): Pick<ApplicationPatch, 'licenceText' | 'licenceRevision'> {
  if (request.licenceText === null) {
    if (request.licenceRevision !== undefined) throw validationError([{ field: 'licenceRevision', message: 'is the revision of licenceText: leave it out when removing the licence' }]);
    // The revision stays stored (the store never lowers it): a licence given again asks past it.
    return { licenceText: null };
  }
  const text = request.licenceText ?? current.licenceText;
  if (text === null) throw validationError([{ field: 'licenceRevision', message: 'is the revision of licenceText: the application has no licence, give licenceText with it' }]);
  // The last revision asked for, of this text or of one removed since.
  const stored = current.licenceRevision ?? 0;
  if (request.licenceRevision !== undefined && request.licenceRevision < stored) {
    throw validationError([{ field: 'licenceRevision', message: `must be at least ${stored}, the current revision` }]);
  }
  const changed = request.licenceText !== undefined && request.licenceText !== current.licenceText;
  return { licenceText: text, licenceRevision: request.licenceRevision ?? (changed ? stored + 1 : Math.max(stored, 1)) };
}
