import { detachedSignature } from '../../shared/signing/repository-keys';
import type { RpmPackageInfo } from '../../shared/store/models';
import type { Eventually } from '../http/eventually';
import type { ReleaseCaller, ReleaseCatalog } from '../releases/release-catalog';
import { IndexSource, RepositoryIndexes } from './repository-indexes';
import type { RepositoryKeys } from './repository-keys';
import { repodataFiles, repomdXml, RpmEntry, rpmLocationOf } from './rpm-documents';

/** One customer's rpm repository of a channel, signed. */
export interface RpmRepodata {
  builtAt: number;
  /** When a key that signed it retires (ms): it is built again then. */
  signedUntil: number;
  repomd: Buffer;
  /** repomd.xml.asc: its detached signature (dnf's repo_gpgcheck). */
  repomdSignature: Buffer;
  /** By path under the repository: `repodata/primary.xml.gz`. */
  files: ReadonlyMap<string, Buffer>;
}

/**
 * An application's rpm repository as a customer sees it: per channel, every `.rpm` of the releases
 * the catalogue offers the customer for Linux, listed from the header read at upload.
 */
export class RpmRepository {
  private readonly repodata: RepositoryIndexes<RpmRepodata>;

  constructor(releases: ReleaseCatalog, keys: RepositoryKeys) {
    this.repodata = new RepositoryIndexes(releases, keys, 'linux', buildRepodata);
  }

  channel(caller: ReleaseCaller, applicationId: string, channel: string): Eventually<RpmRepodata> {
    return this.repodata.index(caller, applicationId, channel);
  }
}

async function buildRepodata({ offered, signing }: IndexSource): Promise<RpmRepodata> {
  const entries: RpmEntry[] = [];
  for (const release of offered) {
    for (const file of release.files) {
      if (file.packageInfo?.format !== 'rpm') continue;
      entries.push({ file, info: file.packageInfo as RpmPackageInfo, location: rpmLocationOf(file) });
    }
  }
  const files = repodataFiles(entries);
  const at = new Date();
  const repomd = repomdXml(files, at);
  return {
    builtAt: Date.now(),
    signedUntil: signing.changesAt,
    repomd,
    repomdSignature: Buffer.from(await detachedSignature(repomd, signing.keys, at), 'utf8'),
    files: new Map(files.map((file) => [file.path, file.bytes])),
  };
}
