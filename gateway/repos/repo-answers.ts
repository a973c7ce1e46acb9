import { notFound } from '../../shared/errors';
import type { PackageFormat } from '../../shared/packages/package-arches';
import type { AppContext, CustomerPrincipal } from '../http/context';
import { andThen, Eventually, isPending } from '../http/eventually';
import type { Reply } from '../http/reply';
import type { DownloadService } from '../downloads/download-service';
import type { ReleaseCatalog } from '../releases/release-catalog';
import type { AptRepository, AptSuite } from './apt-repository';
import type { RepositoryKeys } from './repository-keys';
import type { RpmRepodata, RpmRepository } from './rpm-repository';
import { callerBaseUrl } from '../http/caller-base-url';
import { rpmRepoFile } from '../../shared/packages/repository-setup';

const TEXT = 'text/plain; charset=utf-8';
const GZIP = 'application/gzip';
const KEY = 'application/pgp-keys';
const SIGNATURE = 'application/pgp-signature';
const XML = 'application/xml; charset=utf-8';

type Redirect = Reply<{ downloadUrl: string; expiresAt: string }>;

/** Which of a suite's signed documents. */
export type AptSuiteFile = 'InRelease' | 'Release' | 'Release.gpg';

/**
 * What the repository routes answer: documents from the customer's kept index, the public keys,
 * and package links, which are downloads (the download rules, one event, 302 to a pre-signed URL).
 */
export class RepositoryAnswers {
  constructor(
    private readonly releases: ReleaseCatalog,
    private readonly keys: RepositoryKeys,
    private readonly apt: AptRepository,
    private readonly rpm: RpmRepository,
    private readonly downloads: DownloadService,
    private readonly publicBaseUrl: string,
  ) {}

  /** The application's signing public keys (the current one and any in its overlap), to whoever may use the application. */
  publicKeys(ctx: AppContext, customer: CustomerPrincipal, applicationId: string): Eventually<void> {
    return andThen(this.releases.application(customer, applicationId), async (application) => {
      const signing = await this.keys.signingKeys(applicationId, application);
      send(ctx, KEY, Buffer.from(signing.publicKeys, 'utf8'));
    }, undefined);
  }

  aptSuiteFile(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string, name: AptSuiteFile): Eventually<void> {
    return andThen(this.apt.suite(customer, applicationId, channel), (suite: AptSuite) => {
      if (name === 'InRelease') send(ctx, TEXT, suite.inRelease);
      else if (name === 'Release') send(ctx, TEXT, suite.release);
      else send(ctx, SIGNATURE, suite.releaseGpg);
    }, undefined);
  }

  aptIndex(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string, path: string): Eventually<void> {
    return andThen(this.apt.suite(customer, applicationId, channel), (suite: AptSuite) => {
      const bytes = suite.indexes.get(path);
      if (!bytes) throw notFound(`no index ${path}`);
      send(ctx, path.endsWith('.gz') ? GZIP : TEXT, bytes);
    }, undefined);
  }

  /** An index by hash (`{component}/{binary}/by-hash/SHA256/{sha256}`), of the current or the previous suite. */
  aptIndexByHash(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string, directory: string, sha256: string): Eventually<void> {
    return andThen(this.apt.indexByHash(customer, applicationId, channel, directory, sha256), (bytes: Buffer | null) => {
      if (!bytes) throw notFound(`no index with SHA256 ${sha256}`);
      // Which index it is cannot be told from its name: gzip's magic bytes say it.
      send(ctx, bytes[0] === 0x1f && bytes[1] === 0x8b ? GZIP : TEXT, bytes);
    }, undefined);
  }

  rpmRepomd(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string, signature: boolean): Eventually<void> {
    return andThen(this.rpm.channel(customer, applicationId, channel), (repodata: RpmRepodata) => {
      if (signature) send(ctx, SIGNATURE, repodata.repomdSignature);
      else send(ctx, XML, repodata.repomd);
    }, undefined);
  }

  rpmMetadata(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string, fileName: string): Eventually<void> {
    return andThen(this.rpm.channel(customer, applicationId, channel), (repodata: RpmRepodata) => {
      const bytes = repodata.files.get(`repodata/${fileName}`);
      if (!bytes) throw notFound(`no metadata ${fileName}`);
      send(ctx, GZIP, bytes);
    }, undefined);
  }

  /**
   * The `.repo` file of a channel for /etc/yum.repos.d/: its links carry the caller's path token when
   * it came with one (else the customer sets username and password, its id and an access token).
   */
  rpmRepoFile(ctx: AppContext, customer: CustomerPrincipal, applicationId: string, channel: string): Eventually<void> {
    return andThen(this.releases.application(customer, applicationId), (application) => {
      const base = `${callerBaseUrl(this.publicBaseUrl, ctx.state)}/v1/repos/${applicationId}/rpm`;
      const name = application.displayName ?? application.name;
      send(ctx, TEXT, Buffer.from(rpmRepoFile({ applicationId, channel, name, base, credentials: ctx.state.pathToken !== undefined ? null : 'blank' }), 'utf8'));
    }, undefined);
  }

  /**
   * A package a repository lists, by version and name: granted as a download of that exact version is
   * (access, tier, not yanked: 410; no draft), one download event for a GET, 302 to a pre-signed URL.
   * Only packages of the repository's format are served here.
   */
  async packageFile(ctx: AppContext, customer: CustomerPrincipal, format: PackageFormat, target: { applicationId: string; version: string; fileName: string }): Promise<Redirect> {
    const granted = this.downloads.check(customer, target);
    const { file } = isPending(granted) ? await granted : granted;
    if (file.packageInfo?.format !== format) throw notFound(`version ${target.version} has no ${format} package ${target.fileName}`);
    return this.downloads.answerFileLink(ctx, customer, file);
  }
}

function send(ctx: AppContext, contentType: string, body: Buffer): void {
  ctx.status = 200;
  ctx.set('Content-Type', contentType);
  ctx.body = body;
}
