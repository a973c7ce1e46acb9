import { conflict, notFound, validationError } from '../../shared/errors';
import { REPOSITORY_KEY_OVERLAP_SECONDS } from '../../shared/policy';
import {
  armoredPublicKeys,
  generateRepositoryKey,
  importRepositoryKey,
  openRepositoryKey,
  OpenedKey,
  RepositoryKeyError,
  signingKeysAt,
} from '../../shared/signing/repository-keys';
import type { RepositoryKey, RepositoryKeyRing } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import type { CatalogCache } from '../releases/catalog-cache';

/** The keys that sign an application's repositories now, opened, and the public keys served beside them. */
export interface SigningKeys {
  /** Every key still signing (the current one first, then those in their overlap). */
  keys: readonly OpenedKey[];
  /** One armoured block of their public keys: `key.asc`. */
  publicKeys: string;
  /** Their fingerprints, joined: part of what an index is kept under. */
  fingerprints: string;
  /** When the first of them retires (ms; Infinity when none does): the keys are opened again then. */
  changesAt: number;
}

/**
 * Each application's repository signing keys: generated on first use, or imported by the vendor,
 * rotated with an overlap (REPOSITORY_KEY_OVERLAP_SECONDS) during which the old key still signs and is
 * still served, so installed clients that trust it keep verifying while they fetch the new one.
 * Every write goes through the catalogue's change (every gateway drops the application's records),
 * and the opened keys are kept with the catalogue's application record, so they are dropped with it.
 */
export class RepositoryKeys {
  private readonly opened = new WeakMap<object, Promise<SigningKeys>>();
  /** When each anchor's opened keys stop being the ones that sign (a key in its overlap retires). */
  private readonly expired = new WeakMap<object, number>();

  constructor(private readonly store: Store, private readonly catalog: CatalogCache, private readonly secret: () => Buffer) {}

  /** The signing keys, a key generated first when the application has none. `anchor`: the catalogue's application record. */
  signingKeys(applicationId: string, anchor: object): Promise<SigningKeys> {
    let keys = this.opened.get(anchor);
    if (keys && this.expired.get(anchor)! <= Date.now()) keys = undefined;
    if (!keys) {
      keys = this.load(applicationId);
      this.opened.set(anchor, keys);
      this.expired.set(anchor, Infinity);
      keys.then((opened) => this.expired.set(anchor, opened.changesAt), () => this.opened.delete(anchor));
    }
    return keys;
  }

  /** 404 unless the application exists (live). */
  async requireApplication(applicationId: string): Promise<void> {
    if (!await this.store.applications.getApplication(applicationId)) throw notFound(`application ${applicationId} not found`);
  }

  /** The application's ring as stored, for the console (public parts only are presented). */
  async ring(applicationId: string): Promise<RepositoryKeyRing | null> {
    return this.store.applications.getRepositoryKeys(applicationId);
  }

  /** A new generated key becomes the current one; the previous keys retire after the overlap. */
  async rotate(applicationId: string): Promise<RepositoryKeyRing> {
    const at = new Date();
    return this.replaceCurrent(applicationId, await generateRepositoryKey(this.secret(), applicationId, at), at);
  }

  /** The vendor's key becomes the current one; the previous keys retire after the overlap. 400 for a key that cannot sign here. */
  async import(applicationId: string, armored: string, passphrase: string | undefined): Promise<RepositoryKeyRing> {
    const at = new Date();
    let key: RepositoryKey;
    try {
      key = await importRepositoryKey(this.secret(), applicationId, armored, passphrase, at);
    } catch (error) {
      if (error instanceof RepositoryKeyError) throw validationError([{ field: 'privateKey', message: error.message }]);
      throw error;
    }
    return this.replaceCurrent(applicationId, key, at);
  }

  private async replaceCurrent(applicationId: string, key: RepositoryKey, at: Date): Promise<RepositoryKeyRing> {
    const current = await this.store.applications.getRepositoryKeys(applicationId);
    const retiresAt = new Date(at.getTime() + REPOSITORY_KEY_OVERLAP_SECONDS * 1000);
    const kept = signingKeysAt(current?.keys ?? [], at)
      .filter((old) => old.fingerprint !== key.fingerprint)
      .map((old) => ({ ...old, retiresAt: old.retiresAt ?? retiresAt }));
    const written = await this.catalog.change(applicationId, () =>
      this.store.applications.replaceRepositoryKeys(applicationId, current?.revision ?? 0, [key, ...kept]));
    if (!written) throw conflict('the repository keys changed meanwhile: ask again');
    return written;
  }

  private async load(applicationId: string): Promise<SigningKeys> {
    let ring = await this.store.applications.getRepositoryKeys(applicationId);
    if (!ring || signingKeysAt(ring.keys, new Date()).length === 0) {
      const at = new Date();
      const key = await generateRepositoryKey(this.secret(), applicationId, at);
      // Of gateways generating a first key at once, one writes it; the others read the winner's.
      ring = await this.store.applications.replaceRepositoryKeys(applicationId, ring?.revision ?? 0, [key, ...(ring?.keys ?? [])])
        ?? await this.store.applications.getRepositoryKeys(applicationId);
      if (!ring) throw new Error(`the repository keys of ${applicationId} could not be read after they were written`);
    }
    const signing = signingKeysAt(ring.keys, new Date())
      .sort((a, b) => Number(a.retiresAt !== null) - Number(b.retiresAt !== null));
    const keys = await Promise.all(signing.map((key) => openRepositoryKey(this.secret(), applicationId, key)));
    const changesAt = Math.min(...signing.map((key) => key.retiresAt?.getTime() ?? Infinity));
    return { keys, publicKeys: await armoredPublicKeys(signing), fingerprints: signing.map((key) => key.fingerprint).join(','), changesAt };
  }
}
