import { forbidden, notFound } from '../../shared/errors';
import type { Application, FileRecord, Version } from '../../shared/store/models';
import { tierAllows } from '../../shared/tiers';
import type { CatalogCache } from '../cache/catalog-cache';

export interface DownloadTarget {
  applicationId: string;
  version: string;
  fileId?: string;
}

export interface GrantedFile {
  application: Application;
  version: Version;
  file: FileRecord;
}

/**
 * What a customer may download, checked in the spec's order: the application is live and lists the
 * customer (else 404, revealing nothing), the version has that available file (404 "version not
 * found"), and the customer's tier reaches the version's required tier (403 "tier access required").
 * Share links run the same check at every use.
 */
export async function checkDownloadAccess(
  catalog: CatalogCache,
  tiers: readonly string[],
  customer: { customerId: string; tier: string },
  target: DownloadTarget,
): Promise<GrantedFile> {
  const application = await catalog.application(target.applicationId);
  if (!application || !application.customerIds.includes(customer.customerId)) {
    throw notFound(`application ${target.applicationId} not found`);
  }
  const found = await catalog.downloadable(target.applicationId, target.version, target.fileId);
  if (!found) throw notFound('version not found');
  if (!tierAllows(tiers, customer.tier, found.version.requiredTier)) throw forbidden('tier access required');
  return { application, version: found.version, file: found.file };
}
