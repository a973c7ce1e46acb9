import { presentTufRepository, type tufRepositoryResponse } from '../../shared/contract/tuf';
import { conflict, notFound, unprocessable } from '../../shared/errors';
import { BoundedMap } from '../../shared/cache/bounded-map';
import type { Clock } from '../../shared/clock';
import {
  TUF_SIGN_ON_READ_ENTRIES, TUF_SIGN_ON_READ_INTERVAL_MS, TUF_VERSIONED_ROOT_MAX_AGE_SECONDS,
} from '../../shared/policy';
import type { Store } from '../../shared/store/store';
import { TufRootRefused, type TufRepositories } from '../../shared/tuf/tuf-repositories';
import type { z } from 'zod';
import type { DownloadService } from '../downloads/download-service';
import type { AppContext, CustomerPrincipal } from '../http/context';
import { isPending } from '../http/eventually';
import type { Reply } from '../http/reply';
import type { ReleaseCatalog } from '../releases/release-catalog';
import type { TufDocumentName } from '../../shared/contract/tuf-requests';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Documents that change in place (`root.json`, `timestamp.json`, `snapshot.json`, the targets roles)
 * are kept by no cache without asking again: the repository does not use consistent snapshots, so a
 * timestamp and a snapshot served from different moments would not chain, and a client would refuse
 * them. A versioned root never changes.
 */
const REVALIDATE = 'private, no-cache';
const VERSIONED_ROOT = `private, max-age=${TUF_VERSIONED_ROOT_MAX_AGE_SECONDS}, immutable`;

type Redirect = Reply<{ downloadUrl: string; expiresAt: string }>;

/**
 * What the TUF routes answer. Metadata goes to every customer who may use the application (the
 * catalogue's rule of every customer route: the application is live and lists the customer), whatever
 * its tier or channel: targets it may not download are listed too. A target is a download: its rules,
 * one event, a 302 to a pre-signed URL.
 */
export class TufAnswers {
  /** Per application, when this process last signed on reading its timestamp (the signing itself when one is under way). */
  private readonly signedOnRead = new BoundedMap<string, { at: number; signing?: Promise<unknown> }>(TUF_SIGN_ON_READ_ENTRIES);

  constructor(
    private readonly store: Store,
    private readonly repositories: TufRepositories,
    private readonly releases: ReleaseCatalog,
    private readonly downloads: DownloadService,
    private readonly clock: Clock,
  ) {}

  async metadata(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, name: TufDocumentName): Promise<void> {
    const listed = this.releases.application(customer, applicationId);
    if (isPending(listed)) await listed;
    if (name.kind === 'timestamp') await this.signDue(applicationId);
    const document = await this.document(applicationId, name);
    ctx.status = 200;
    ctx.set('Content-Type', JSON_TYPE);
    ctx.set('Cache-Control', name.kind === 'root' && name.version !== undefined ? VERSIONED_ROOT : REVALIDATE);
    ctx.body = Buffer.from(document, 'utf8');
  }

  /** A published file by its target path: granted as a download of that version is, one event for a GET. */
  async target(ctx: AppContext, customer: CustomerPrincipal, target: { applicationId: string; version: string; fileName: string }): Promise<Redirect> {
    const granted = this.downloads.check(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    return this.downloads.answerFileLink(ctx, customer, file);
  }

  /** The repository for `bds tuf`: online keys (made on first use) and the latest root. */
  async describe(applicationId: string): Promise<z.input<typeof tufRepositoryResponse>> {
    await this.requireApplication(applicationId);
    const repository = await this.repositories.ensure(applicationId);
    return presentTufRepository(repository, await this.store.tuf.latestTufRoot(applicationId));
  }

  /** Keeps the vendor's next root (422 when it breaks a rule, 409 when another took its version), then signs the online roles. */
  async uploadRoot(applicationId: string, root: unknown): Promise<z.input<typeof tufRepositoryResponse>> {
    await this.requireApplication(applicationId);
    try {
      await this.repositories.uploadRoot(applicationId, root);
    } catch (error) {
      if (error instanceof TufRootRefused) throw error.conflict ? conflict(error.message) : unprocessable(error.message, 'INVALID_TUF_ROOT');
      throw error;
    }
    return this.describe(applicationId);
  }

  /**
   * Signs what is due (a release published since, a role near its expiry) before a timestamp is
   * read, at most every TUF_SIGN_ON_READ_INTERVAL_MS per application; readers meanwhile wait for the
   * signing under way. Nothing is signed before the vendor's first root.
   */
  private async signDue(applicationId: string): Promise<void> {
    const now = this.clock.now();
    const last = this.signedOnRead.get(applicationId);
    if (last?.signing) {
      await last.signing;
      return;
    }
    if (last && now - last.at < TUF_SIGN_ON_READ_INTERVAL_MS) return;
    const signing = this.repositories.resign(applicationId);
    this.signedOnRead.set(applicationId, { at: now, signing });
    try {
      await signing;
    } finally {
      this.signedOnRead.set(applicationId, { at: now });
    }
  }

  private async requireApplication(applicationId: string): Promise<void> {
    if (!(await this.store.applications.getApplication(applicationId))) throw notFound(`application ${applicationId} not found`);
  }

  private async document(applicationId: string, name: TufDocumentName): Promise<string> {
    if (name.kind === 'root') {
      const root = name.version === undefined ? await this.store.tuf.latestTufRoot(applicationId) : await this.store.tuf.findTufRoot(applicationId, name.version);
      if (!root) throw notFound(name.version === undefined ? 'this application has no TUF repository yet' : `no root version ${name.version}`);
      return root.document;
    }
    const metadata = (await this.store.tuf.findTufRepository(applicationId))?.metadata;
    if (!metadata) throw notFound('this application has no TUF repository yet');
    if (name.kind === 'channel') {
      const role = metadata.channels[name.channel];
      if (!role) throw notFound(`no targets role ${name.channel}`);
      return role;
    }
    return metadata[name.kind];
  }
}
