import { forbidden, notFound } from '../../shared/errors';
import type { Application, FileRecord, Version } from '../../shared/store/models';
import { tierAllows } from '../../shared/tiers';
import type { CatalogCache, Downloadable } from '../cache/catalog-cache';
import type { Eventually } from '../http/eventually';
import type { DownloadTarget } from '../schemas/download-schemas';
import type { DownloadAnswerCache } from './answer-cache';

export interface GrantedFile {
  application: Application;
  version: Version;
  file: FileRecord;
}

export interface DownloadingCustomer {
  customerId: string;
  tier: string;
}

/**
 * What a customer may download, checked in the spec's order: the application is live and lists the
 * customer (else 404, revealing nothing), the version has that available file (404 "version not
 * found"), and the customer's tier reaches the version's required tier (403 "tier access required").
 * Share links run the same check at every use. Answers now when the records are cached in process,
 * as they are for every request of a burst after the first.
 */
export class AccessCheck {
  constructor(
    private readonly catalog: CatalogCache,
    private readonly answers: DownloadAnswerCache,
    private readonly tiers: readonly string[],
  ) {}

  check(customer: DownloadingCustomer, target: DownloadTarget): Eventually<GrantedFile> {
    const application = this.catalog.cachedApplication(target.applicationId);
    const found = application && this.catalog.cachedDownloadable(target.applicationId, target.version, target.fileId);
    if (application && found) return this.grant(customer, target, application, found);
    return this.checkFromStore(customer, target);
  }

  private async checkFromStore(customer: DownloadingCustomer, target: DownloadTarget): Promise<GrantedFile> {
    // Refused before the version is read: a customer without access learns nothing about versions.
    const application = this.listed(await this.catalog.application(target.applicationId), customer, target);
    return this.grant(customer, target, application, await this.catalog.downloadable(target.applicationId, target.version, target.fileId));
  }

  private listed(application: Application | null, customer: DownloadingCustomer, target: DownloadTarget): Application {
    if (!application || !this.answers.lists(application, customer.customerId)) {
      throw notFound(`application ${target.applicationId} not found`);
    }
    return application;
  }

  private grant(customer: DownloadingCustomer, target: DownloadTarget, application: Application | null, found: Downloadable | null): GrantedFile {
    const listed = this.listed(application, customer, target);
    if (!found) throw notFound('version not found');
    if (!tierAllows(this.tiers, customer.tier, found.version.requiredTier)) throw forbidden('tier access required');
    return { application: listed, version: found.version, file: found.file };
  }
}
