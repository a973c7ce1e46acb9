import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Logger } from '../../shared/logger';
import { badRequest, notFound, unsupportedMediaType } from '../../shared/errors';
import { LOGO_CONTENT_TYPES } from '../../shared/policy';
import type { ObjectStorage } from '../../shared/storage/object-storage';
import type { Application, ApplicationLogo } from '../../shared/store/models';
import type { Store } from '../../shared/store/store';
import { logoStorageKey } from '../../shared/uploads/storage-keys';
import type { ApplicationService } from './application-service';
import type { AppContext } from '../http/context';
import { logoTypeOf, sniffImageType } from '../../shared/image-type';
import { answerLogo } from './logo-answer';

const TYPE_NAMES: Record<ApplicationLogo['contentType'], string> = { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' };

/** A Content-Type a logo cannot have: 415, naming the ones it can. */
export const unsupportedLogoType = () => unsupportedMediaType(`a logo is sent as raw bytes with Content-Type ${LOGO_CONTENT_TYPES.join(', ')}`);

/**
 * Applications' logos: the bytes in object storage under a key of their SHA-256, the record's `logo`
 * describing them. Every write goes through the application's change (caches everywhere see it).
 */
export class LogoService {
  constructor(
    private readonly store: Store,
    private readonly storage: ObjectStorage,
    private readonly applications: ApplicationService,
    private readonly logger: Logger,
  ) {}

  /** The declared type a logo upload may have, or 415; checked before the body is read. */
  admitType(contentType: string | undefined): ApplicationLogo['contentType'] {
    const declared = logoTypeOf(contentType);
    if (!declared) throw unsupportedLogoType();
    return declared;
  }

  /**
   * Sets the application's logo to `bytes`, which must be an image of the declared type (400
   * otherwise); the replaced logo's bytes are deleted once the record points at the new ones.
   */
  async set(applicationId: string, declared: ApplicationLogo['contentType'], bytes: Buffer): Promise<Application> {
    const actual = sniffImageType(bytes);
    if (actual !== declared) {
      throw badRequest(`the Content-Type says ${declared} but the bytes are ${actual ? `a ${TYPE_NAMES[actual]} image` : `not a ${TYPE_NAMES[declared]} image`}`);
    }
    const current = await this.applications.require(applicationId);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const key = logoStorageKey(applicationId, sha256);
    await this.storage.put(key, Readable.from([bytes]), { contentLength: bytes.length, contentType: declared });
    const logo: ApplicationLogo = { contentType: declared, size: bytes.length, sha256, updatedAt: new Date() };
    // A write that fails leaves nothing pointing at the bytes just stored, unless they are the logo set already.
    const unstore = () => (current.logo?.sha256 === sha256 ? Promise.resolve() : this.discard(applicationId, sha256));
    let replaced;
    try {
      replaced = await this.applications.change(applicationId, () => this.store.applications.replaceApplicationLogo(applicationId, logo, logo.updatedAt));
    } catch (error) {
      await unstore();
      throw error;
    }
    if (!replaced) {
      await unstore();
      throw notFound(`application ${applicationId} not found`);
    }
    if (replaced.previous && replaced.previous.sha256 !== sha256) await this.discard(applicationId, replaced.previous.sha256);
    return replaced.application;
  }

  /** Removes the application's logo and its bytes; an application without one is answered as it is. */
  async remove(applicationId: string): Promise<Application> {
    const replaced = await this.applications.change(applicationId, () => this.store.applications.replaceApplicationLogo(applicationId, null, new Date()));
    if (!replaced) throw notFound(`application ${applicationId} not found`);
    if (replaced.previous) await this.discard(applicationId, replaced.previous.sha256);
    return replaced.application;
  }

  /** Answers an application's logo (the image, 304 or 404) to an admin or a customer the caller checked may see it. */
  answer(ctx: AppContext, applicationId: string, logo: ApplicationLogo | null): Promise<void> {
    return answerLogo(ctx, applicationId, logo, (id, shown) => this.storage.getStream(logoStorageKey(id, shown.sha256)));
  }

  /** The record changed already: bytes that cannot be deleted now are left behind, which is logged, not answered. */
  private async discard(applicationId: string, sha256: string): Promise<void> {
    try {
      await this.storage.delete(logoStorageKey(applicationId, sha256));
    } catch (error) {
      this.logger.warn({ err: error, applicationId, sha256 }, 'could not delete the bytes of a replaced logo; they are left in the object store');
    }
  }
}
