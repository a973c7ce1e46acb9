import { REPOSITORY_RELEASE_VALIDITY_SECONDS } from '../../shared/policy';
import { clearsign, detachedSignature } from '../../shared/signing/repository-keys';
import type { DebPackageInfo } from '../../shared/store/models';
import type { Eventually } from '../http/eventually';
import type { ReleaseCaller, ReleaseCatalog } from '../releases/release-catalog';
import { PoolEntry, poolPathOf, releaseFile, suiteIndexes } from './apt-documents';
import { IndexSource, RepositoryIndexes } from './repository-indexes';
import type { RepositoryKeys } from './repository-keys';

/** One customer's apt suite (a channel), signed. */
export interface AptSuite {
  builtAt: number;
  /** When a key that signed it retires (ms): it is built again then. */
  signedUntil: number;
  release: Buffer;
  inRelease: Buffer;
  releaseGpg: Buffer;
  /** By path under `dists/{suite}/`: `main/binary-amd64/Packages(.gz)`. */
  indexes: ReadonlyMap<string, Buffer>;
  /** The `.deb` files it lists, by pool path. */
  pool: ReadonlyMap<string, PoolEntry>;
}

/**
 * An application's apt repository as a customer sees it: per channel (the suite), every `.deb` of the
 * releases the catalogue offers the customer for Linux, newest first (apt installs the newest
 * version it is offered), listed from the control paragraph read at upload.
 */
export class AptRepository {
  private readonly suites: RepositoryIndexes<AptSuite>;

  constructor(releases: ReleaseCatalog, keys: RepositoryKeys) {
    this.suites = new RepositoryIndexes(releases, keys, 'linux', buildSuite);
  }

  suite(caller: ReleaseCaller, applicationId: string, channel: string): Eventually<AptSuite> {
    return this.suites.index(caller, applicationId, channel);
  }
}

async function buildSuite({ applicationId, channel, offered, signing }: IndexSource): Promise<AptSuite> {
  const entries: PoolEntry[] = [];
  for (const release of offered) {
    for (const file of release.files) {
      if (file.packageInfo?.format !== 'deb') continue;
      entries.push({ file, info: file.packageInfo as DebPackageInfo, poolPath: poolPathOf(file) });
    }
  }
  const indexes = suiteIndexes(entries);
  const date = new Date();
  // Whole seconds: the Date field has no fraction, and signatures made at that second match it.
  date.setUTCMilliseconds(0);
  const release = releaseFile({ applicationId, suite: channel, date, validUntil: new Date(date.getTime() + REPOSITORY_RELEASE_VALIDITY_SECONDS * 1000) }, indexes);
  const [inRelease, releaseGpg] = await Promise.all([
    clearsign(release.toString('utf8'), signing.keys, date),
    detachedSignature(release, signing.keys, date),
  ]);
  return {
    builtAt: Date.now(),
    signedUntil: signing.changesAt,
    release,
    inRelease: Buffer.from(inRelease, 'utf8'),
    releaseGpg: Buffer.from(releaseGpg, 'utf8'),
    indexes: new Map(indexes.map(({ path, bytes }) => [path, bytes])),
    pool: new Map(entries.map((entry) => [entry.poolPath, entry])),
  };
}
