import { notFound } from '../../shared/errors';
import type { VersionWithFiles } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { UpdateVersionRequest } from '../schemas/version-schemas';
import type { ApplicationService } from './application-service';

/** Versions of an application: listing with files, and the tier and notes an admin may change. */
export class VersionService {
  constructor(private readonly store: Store, private readonly applications: ApplicationService) {}

  async list(applicationId: string): Promise<VersionWithFiles[]> {
    await this.applications.require(applicationId);
    return this.store.listVersions(applicationId);
  }

  async update(applicationId: string, version: string, patch: UpdateVersionRequest): Promise<VersionWithFiles> {
    await this.applications.require(applicationId);
    const updated = await this.applications.change(applicationId, () => this.store.updateVersion(applicationId, version, patch, new Date()));
    if (!updated) throw notFound(`version ${version} of ${applicationId} not found`);
    const withFiles = (await this.store.listVersions(applicationId)).find((v) => v.version === version);
    return withFiles ?? { ...updated, files: [] };
  }
}
