import { forbidden, notFound } from '../../shared/errors';
import type { Application, FileRecord, Version } from '../../shared/store/models';
import { tierAllows } from '../../shared/tiers';
import type { CatalogCache, Downloadable } from '../cache/catalog-cache';
import type { DownloadTarget } from '../schemas/download-schemas';


export interface GrantedFile {
  application: Application;
  version: Version;
  file: FileRecord;
}

/**
 * What a customer may download, checked in the spec's order: the application is live and lists the
 * customer (else 404, revealing nothing), the version has that available file (404 "version not
 * found"), and the customer's tier reaches the version's required tier (403 "tier access required").
 * Share links run the same check at every use. Answered without waiting when the records are cached
 * in process, as they are for every request of a burst after the first.
 */
export function checkDownloadAccess(
  catalog: CatalogCache,
  tiers: readonly string[],
  customer: { customerId: string; tier: string },
  target: DownloadTarget,
): GrantedFile | Promise<GrantedFile> {
  const application = catalog.cachedApplication(target.applicationId);
  const found = application && catalog.cachedDownloadable(target.applicationId, target.version, target.fileId);
  if (application && found) return grant(tiers, customer, target, application, found);
  return checkFromStore(catalog, tiers, customer, target);
}

async function checkFromStore(
  catalog: CatalogCache,
  tiers: readonly string[],
  customer: { customerId: string; tier: string },
  target: DownloadTarget,
): Promise<GrantedFile> {
  // Refused before the version is read: a customer without access learns nothing about versions.
  const application = listedApplication(await catalog.application(target.applicationId), customer, target);
  return grant(tiers, customer, target, application, await catalog.downloadable(target.applicationId, target.version, target.fileId));
}

/**
 * The customers of each application record, as a Set: the cached record is the same object for every
 * request, so an application with thousands of customers costs one lookup per download, not a scan.
 */
const customersOf = new WeakMap<Application, ReadonlySet<string>>();

function lists(application: Application, customerId: string): boolean {
  let customers = customersOf.get(application);
  if (!customers) {
    customers = new Set(application.customerIds);
    customersOf.set(application, customers);
  }
  return customers.has(customerId);
}

function listedApplication(application: Application | null, customer: { customerId: string }, target: DownloadTarget): Application {
  if (!application || !lists(application, customer.customerId)) {
    throw notFound(`application ${target.applicationId} not found`);
  }
  return application;
}

function grant(
  tiers: readonly string[],
  customer: { customerId: string; tier: string },
  target: DownloadTarget,
  application: Application | null,
  found: Downloadable | null,
): GrantedFile {
  const listed = listedApplication(application, customer, target);
  if (!found) throw notFound('version not found');
  if (!tierAllows(tiers, customer.tier, found.version.requiredTier)) throw forbidden('tier access required');
  return { application: listed, version: found.version, file: found.file };
}
