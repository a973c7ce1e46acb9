import { issueAdminKey } from '../../shared/api-keys';
import type { IssuedAdminKey } from '../../shared/contract/admin-keys';
import { notFound, validationError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { AdminKey } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { AdminKeyCache } from '../auth/admin-key-cache';
import type { CreateAdminKeyRequest } from '../../shared/contract/admin-keys-requests';

/**
 * Scoped admin keys. A revocation is written through the admin-key cache, so the very next request
 * on any gateway is refused, or it is refused with 503 and nothing is written.
 */
export class AdminKeyService {
  constructor(
    private readonly store: Store,
    private readonly adminKeys: AdminKeyCache,
  ) {}

  async issue(request: CreateAdminKeyRequest): Promise<IssuedAdminKey> {
    if (request.applicationIds) await this.checkApplicationsExist(request.applicationIds);
    const issued = issueAdminKey();
    const record = await this.store.accounts.createAdminKey({
      keyId: newId('adk'),
      name: request.name,
      keyHash: issued.keyHash,
      prefix: issued.prefix,
      scopes: request.scopes,
      applicationIds: request.applicationIds ?? null,
      createdAt: new Date(),
      expiresAt: request.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
    });
    return { record, apiKey: issued.apiKey };
  }

  list(): Promise<AdminKey[]> {
    return this.store.accounts.listAdminKeys();
  }

  async revoke(keyId: string): Promise<AdminKey> {
    const revoked = await this.adminKeys.revoke(keyId, () => this.store.accounts.revokeAdminKey(keyId, new Date()));
    if (!revoked) throw notFound(`no active admin key ${keyId}`);
    return revoked;
  }

  /** Soft-deleted applications count: a key may be issued for one that is to be restored. */
  private async checkApplicationsExist(applicationIds: string[]): Promise<void> {
    const found = await Promise.all(applicationIds.map((id) => this.store.applications.getApplication(id, { includeDeleted: true })));
    const missing = applicationIds.filter((_, i) => !found[i]);
    if (missing.length > 0) throw validationError([{ field: 'applicationIds', message: `unknown applications: ${missing.join(', ')}` }]);
  }
}
