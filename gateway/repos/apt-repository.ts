import { createHash } from 'node:crypto';
import { BoundedMap } from '../../shared/cache/bounded-map';
import { REPOSITORY_PREVIOUS_SUITES_KEPT, REPOSITORY_RELEASE_VALIDITY_SECONDS } from '../../shared/policy';
import { clearsign, detachedSignature } from '../../shared/signing/repository-keys';
import type { DebPackageInfo } from '../../shared/store/models';
import { andThen, type Eventually } from '../http/eventually';
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
  /** The same indexes by `{directory}/{sha256 hex}` (`main/binary-amd64/ab12...`), as by-hash asks for them. */
  byHash: ReadonlyMap<string, Buffer>;
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
  /** Per customer selection (customer, token limits, application, channel): the suite last answered and the one before it. */
  private readonly answered = new BoundedMap<string, { current: AptSuite; previous?: AptSuite }>(REPOSITORY_PREVIOUS_SUITES_KEPT);

  constructor(releases: ReleaseCatalog, keys: RepositoryKeys) {
    this.suites = new RepositoryIndexes(releases, keys, 'linux', buildSuite);
  }

  suite(caller: ReleaseCaller, applicationId: string, channel: string): Eventually<AptSuite> {
    return andThen(this.suites.index(caller, applicationId, channel), (suite: AptSuite) => {
      const key = selectionKey(caller, applicationId, channel);
      const seen = this.answered.get(key);
      if (seen?.current !== suite) this.answered.set(key, { current: suite, previous: seen?.current });
      return suite;
    }, undefined);
  }

  /**
   * An index by its SHA256 under `{directory}/by-hash/SHA256/`: the caller's current suite's, or the
   * one it was answered before (an apt that read the older InRelease while an index changed). Null
   * when neither has it.
   */
  indexByHash(caller: ReleaseCaller, applicationId: string, channel: string, directory: string, sha256: string): Eventually<Buffer | null> {
    return andThen(this.suite(caller, applicationId, channel), (suite: AptSuite) => {
      const path = `${directory}/${sha256}`;
      return suite.byHash.get(path) ?? this.answered.get(selectionKey(caller, applicationId, channel))?.previous?.byHash.get(path) ?? null;
    }, undefined);
  }
}

/** Whose suite: a token narrows what its customer sees, so its limits are part of the selection. */
function selectionKey(caller: ReleaseCaller, applicationId: string, channel: string): string {
  return `${caller.customerId}\n${caller.token ? JSON.stringify(caller.token.record) : ''}\n${applicationId}\n${channel}`;
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
    byHash: new Map(indexes.map(({ path, bytes }) => [`${path.slice(0, path.lastIndexOf('/'))}/${createHash('sha256').update(bytes).digest('hex')}`, bytes])),
    pool: new Map(entries.map((entry) => [entry.poolPath, entry])),
  };
}
