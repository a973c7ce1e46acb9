import { conflict, DuplicateError, notFound, validationError } from '../../shared/errors';
import { NEW_APPLICATIONS_VERSION_STATUS } from '../../shared/releases/lifecycle';
import type { Application, VersionWithFiles } from '../../shared/store/models';
import type { JobQueues } from '../../shared/queues/job-queues';
import type { ApplicationPatch, Page, Store } from '../../shared/store/store';
import { webhookData } from '../../shared/webhooks/events';
import type { WebhookEvents } from '../../shared/webhooks/webhook-events';
import type { CatalogCache } from '../cache/catalog-cache';
import type { CreateApplicationRequest, ListApplicationsQuery, UpdateApplicationRequest } from '../schemas/application-schemas';

/** Applications: creation, listing, updates and soft deletion. */
export class ApplicationService {
  constructor(private readonly store: Store, private readonly catalog: CatalogCache, private readonly webhooks: WebhookEvents, private readonly jobs: JobQueues) {}

  async create(input: CreateApplicationRequest): Promise<Application> {
    const customerIds = unique(input.customerIds ?? []);
    await this.checkCustomersExist(customerIds);
    const now = new Date();
    try {
      return await this.store.createApplication({
        applicationId: input.applicationId,
        name: input.name,
        description: input.description ?? null,
        tags: unique(input.tags ?? []),
        customerIds,
        updateSigningKey: input.updateSigningKey ?? null,
        sparklePublicKey: input.sparklePublicKey ?? null,
        defaultVersionStatus: input.defaultVersionStatus ?? NEW_APPLICATIONS_VERSION_STATUS,
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
    return this.store.listApplications(query);
  }

  /** The application with its versions and files; soft-deleted ones only when asked for. */
  async get(applicationId: string, includeDeleted = false): Promise<{ application: Application; versions: VersionWithFiles[] }> {
    const application = await this.require(applicationId, includeDeleted);
    return { application, versions: await this.store.listVersions(applicationId) };
  }

  async update(applicationId: string, request: UpdateApplicationRequest): Promise<Application> {
    let patch: ApplicationPatch = request;
    if (patch.customerIds) {
      patch = { ...patch, customerIds: unique(patch.customerIds) };
      await this.checkCustomersExist(patch.customerIds as string[]);
    }
    if (patch.tags) patch = { ...patch, tags: unique(patch.tags) };
    const updated = await this.change(applicationId, () => this.store.updateApplication(applicationId, patch, new Date()));
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
    if ((await this.store.findMissingCustomers([customerId])).length > 0) throw notFound(`customer ${customerId} not found`);
    const granted = await this.change(applicationId, () => this.store.grantApplicationAccess(applicationId, customerId, new Date()));
    if (!granted) throw notFound(`application ${applicationId} not found`);
    return granted;
  }

  /** Takes one customer's access away; a customer without it is no change, an unknown one a 404. */
  async revoke(applicationId: string, customerId: string): Promise<Application> {
    const application = await this.require(applicationId);
    if (!application.customerIds.includes(customerId) && (await this.store.findMissingCustomers([customerId])).length > 0) {
      throw notFound(`customer ${customerId} not found`);
    }
    const revoked = await this.change(applicationId, () => this.store.revokeApplicationAccess(applicationId, customerId, new Date()));
    if (!revoked) throw notFound(`application ${applicationId} not found`);
    return revoked;
  }

  async softDelete(applicationId: string): Promise<Application> {
    const at = new Date();
    const deleted = await this.webhooks.announceChange(
      [{ type: 'application.deleted', subject: [applicationId], at }],
      () => this.change(applicationId, () => this.store.softDeleteApplication(applicationId, at)),
      (application) => [application && webhookData.applicationDeleted(application)],
    );
    if (!deleted) throw notFound(`application ${applicationId} not found`);
    return deleted;
  }

  async restore(applicationId: string): Promise<Application> {
    const restored = await this.change(applicationId, () => this.store.restoreApplication(applicationId, new Date()));
    if (restored) return restored;
    const existing = await this.store.getApplication(applicationId);
    if (existing) throw conflict(`application ${applicationId} is not deleted`);
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
    const application = await this.store.getApplication(applicationId, { includeDeleted });
    if (!application) throw notFound(`application ${applicationId} not found`);
    return application;
  }

  private async checkCustomersExist(customerIds: string[]): Promise<void> {
    if (customerIds.length === 0) return;
    const missing = await this.store.findMissingCustomers(customerIds);
    if (missing.length > 0) {
      throw validationError([{ field: 'customerIds', message: `unknown customers: ${missing.join(', ')}` }]);
    }
  }
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];
