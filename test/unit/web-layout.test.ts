import { expect } from 'chai';
import path from 'node:path';
import { ImportEdge, importCycles, importEdges, PathLevels, sourceFiles } from '../support/import-layout';
import { SHARED_ADAPTERS_LEVEL, SHARED_LEVELS } from '../support/shared-levels';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/**
 * web/'s rooms (ARCHITECTURE.md): `common/` below the two apps, the console and the portal, which
 * never import each other. What the pages take from shared/ runs in a browser: types from anywhere,
 * code only from below shared/'s adapters (no store, storage, Redis or process assembly in a bundle).
 */
const WEB_LEVELS = new PathLevels([
  { name: 'common', members: ['web/common/'] },
  { name: 'apps', members: ['web/console/', 'web/portal/'] },
]);
const APPS = ['web/console/', 'web/portal/'];

function webViolations(files: readonly string[], edges: readonly ImportEdge[]): string[] {
  const inWeb = edges.filter((edge) => edge.to.startsWith('web/'));
  const found = WEB_LEVELS.violations(files, inWeb);
  for (const { from, to } of inWeb) {
    const [fromApp, toApp] = [APPS.find((app) => from.startsWith(app)), APPS.find((app) => to.startsWith(app))];
    if (fromApp !== undefined && toApp !== undefined && fromApp !== toApp) found.push(`${from} -> ${to}: one app imports the other`);
  }
  for (const { from, to, typeOnly } of edges) {
    if (!to.startsWith('shared/') || typeOnly) continue;
    if (SHARED_LEVELS.levelOf(to.slice('shared/'.length)) >= SHARED_ADAPTERS_LEVEL) found.push(`${from} -> ${to}: a page loads code of shared/'s adapters or above`);
  }
  for (const { from, to } of edges) {
    if (!to.startsWith('web/') && !to.startsWith('shared/')) found.push(`${from} -> ${to}: a page imports from outside web/ and shared/`);
  }
  return found;
}

describe('web layout', () => {
  const files = sourceFiles(path.join(ROOT, 'web')).map((file) => `web/${file}`);
  const edges = importEdges(ROOT, files);

  it('common/ below the apps, the apps apart, and only browser-safe code from shared/', () => {
    expect(edges.length, 'imports were read').to.be.greaterThan(100);
    expect(webViolations(files, edges)).to.deep.equal([]);
  });

  it('no import cycle among web files, type-only imports included', () => {
    expect(importCycles(edges.filter((edge) => edge.to.startsWith('web/')))).to.deep.equal([]);
  });

  it('finds an upward import, one app importing the other, and adapter code in a page', () => {
    const sources: Record<string, string> = {
      'web/common/api.ts': "import { signIn } from '../console/pages/sign-in';",
      'web/portal/app.tsx': "import { Version } from '../console/pages/version';\nimport type { Customer } from '../../shared/store/models';",
      'web/console/app.tsx': "import { openStore } from '../../shared/store/sqlite/connection';\nimport { PLATFORMS } from '../../shared/releases/platforms';",
    };
    const planted = importEdges(ROOT, Object.keys(sources), (file) => sources[file]);
    expect(webViolations(Object.keys(sources), planted)).to.deep.equal([
      'web/common/api.ts -> web/console/pages/sign-in.tsx: imports upward (common -> apps)',
      'web/portal/app.tsx -> web/console/pages/version.tsx: one app imports the other',
      "web/console/app.tsx -> shared/store/sqlite/connection.ts: a page loads code of shared/'s adapters or above",
    ]);
  });
});
