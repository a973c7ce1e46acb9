import { expect } from 'chai';
import path from 'node:path';
import { importCycles, importEdges, sourceFiles } from '../support/import-layout';
import { SHARED_LEVELS } from '../support/shared-levels';

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared');


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
