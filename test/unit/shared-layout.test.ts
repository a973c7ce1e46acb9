import { expect } from 'chai';
import path from 'node:path';
import { importCycles, importEdges, PathLevels, sourceFiles } from '../support/import-layout';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared');

/**
 * shared/'s levels, lowest first (ARCHITECTURE.md, "shared/ by level"): words and limits; the
 * records, ports and contract written in those words; the adapters behind the ports; the mechanisms
 * that run on adapters; and the assembly that builds a process's services. A file imports from its
 * own level and below.
 */
export const SHARED_LEVELS = new PathLevels([
  {
    name: 'vocabulary',
    members: [
      'policy.ts', 'errors.ts', 'ids.ts', 'clock.ts', 'text-length.ts', 'scopes.ts', 'tiers.ts', 'markdown.ts',
      'image-type.ts', 'net.ts', 'secrets.ts', 'hashing.ts', 'rate-limit-policies.ts', 'api-keys.ts', 'logger.ts',
      'releases/platforms.ts', 'releases/channels.ts', 'releases/lifecycle.ts', 'releases/version-order.ts',
      'releases/rollout.ts', 'releases/update-client-names.ts', 'releases/visitor-platform.ts',
      'signing/minisign.ts', 'signing/sparkle.ts',
      // The process's stopping flag and handler: adapters ask it whether a lost connection is an outage.
      'runtime/shutdown.ts',
      'webhooks/event-types.ts',
      'durations.ts', 'releases/file-types.ts',
    ],
  },
  {
    name: 'records, ports and rules',
    members: ['store/', 'token-periods.ts', 'contract/', 'releases/', 'storage/object-storage.ts', 'storage/stored-part.ts', 'uploads/multipart-layout.ts', 'uploads/storage-keys.ts',
      'packages/package-identity.ts',
      // The build-output recogniser: pure rules over what build tools write, run by the CLI and the console.
      'publishing/',
    ],
  },
  {
    name: 'adapters',
    members: ['store/sqlite/', 'store/mongo/', 'storage/', 'redis/', 'cache/', 'queues/', 'hashing-threads/', 'metrics/'],
  },
  {
    name: 'mechanisms',
    members: ['uploads/', 'events/', 'adoption/', 'webhooks/', 'packages/', 'signing/', 'tuf/'],
  },
  {
    name: 'assembly',
    members: ['runtime/', 'config.ts', 'store/create-store.ts', 'storage/create-object-storage.ts'],
  },
]);

describe('shared layout', () => {
  const files = sourceFiles(SHARED);
  const edges = importEdges(SHARED, files);

  it('every file of shared/ is in a level, and imports point only downward', () => {
    expect(edges.length, 'imports were read').to.be.greaterThan(200);
    expect(SHARED_LEVELS.violations(files, edges)).to.deep.equal([]);
  });

  it('no import cycle among shared files, type-only imports included', () => {
    expect(importCycles(edges)).to.deep.equal([]);
  });

  it('finds a file in no level, an upward import and a type cycle', () => {
    const sources: Record<string, string> = {
      'store/models.ts': "import type { EventWrites } from './sqlite/event-writes';",
      'store/sqlite/event-writes.ts': "import type { Application } from '../models';",
      'policy.ts': "import { loadConfig } from './config';",
      'config.ts': '',
      'somewhere/new.ts': "import { DAY_MS } from '../policy';",
    };
    const planted = importEdges(SHARED, Object.keys(sources), (file) => sources[file]);
    expect(importCycles(planted)).to.deep.equal([['store/models.ts', 'store/sqlite/event-writes.ts']]);
    expect(SHARED_LEVELS.violations(Object.keys(sources), planted)).to.deep.equal([
      'somewhere/new.ts: in no level of the layout',
      'store/models.ts -> store/sqlite/event-writes.ts: imports upward (records, ports and rules -> adapters)',
      'policy.ts -> config.ts: imports upward (vocabulary -> assembly)',
    ]);
  });
});
