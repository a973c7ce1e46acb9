import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { ImportEdge, importCycles, importEdges, sourceFiles } from '../support/import-layout';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GATEWAY = path.join(ROOT, 'gateway');

/**
 * The gateway's rooms, lowest first (ARCHITECTURE.md, "Map of the rooms"). A file may import from its
 * own room and from rooms below it, never from one above: the foundation knows no feature, and a
 * pipeline stage is assembled by the pipeline, never imported by the HTTP basics it builds on.
 * Feature rooms share one level: one may name another's service by type only (gateway-services.ts
 * hands the instance over).
 */
const LEVELS: readonly (readonly string[])[] = [
  ['http'],
  ['auth', 'middleware'],
  ['rate-limits', 'idempotency'],
  ['pipeline'],
  ['releases'],
  ['gateway-deps.ts'],
  ['applications', 'customers', 'admin-keys', 'uploads', 'webhooks', 'statistics', 'downloads', 'updates', 'repos', 'operations', 'web', 'attestations', 'tuf'],
  ['app.ts', 'gateway-services.ts', 'route-table.ts', 'reference-routes.ts', 'gateway-process.ts'],
];
const FEATURES = new Set(LEVELS[6]);
const FOUNDATION = new Set(LEVELS.slice(0, 4).flat());

/** Every .ts file under gateway/, relative to it. */
const gatewayFiles = (): string[] => sourceFiles(GATEWAY);

/** The imports between gateway files; `read` lets a test plant sources. */
const gatewayEdges = (files: readonly string[] = gatewayFiles(), read?: (file: string) => string): ImportEdge[] => importEdges(GATEWAY, files, read);

/** The room of a gateway file: its top folder, or the file itself at the top. */
const roomOf = (file: string): string => file.split('/')[0];

const levelOf = (room: string): number => LEVELS.findIndex((rooms) => rooms.includes(room));

/** Imports that point up, from the foundation into a feature, or between features other than by type. */
function layoutViolations(edges: readonly ImportEdge[]): string[] {
  const found: string[] = [];
  for (const { from, to, typeOnly } of edges) {
    const [fromRoom, toRoom] = [roomOf(from), roomOf(to)];
    if (fromRoom === toRoom) continue;
    const [fromLevel, toLevel] = [levelOf(fromRoom), levelOf(toRoom)];
    if (fromLevel < 0) found.push(`${from}: gateway/${fromRoom} is in no level of the layout`);
    else if (toLevel < 0) found.push(`${from} -> ${to}: gateway/${toRoom} is in no level of the layout`);
    else if (FOUNDATION.has(fromRoom) && FEATURES.has(toRoom)) found.push(`${from} -> ${to}: the foundation imports a feature room`);
    else if (toLevel > fromLevel) found.push(`${from} -> ${to}: imports upward`);
    else if (toLevel === fromLevel && FEATURES.has(fromRoom) && !typeOnly) found.push(`${from} -> ${to}: a feature room loads another's code`);
  }
  return found;
}

describe('gateway layout', () => {
  const files = gatewayFiles();
  const edges = gatewayEdges(files);

  it('every top folder and file of gateway/ is a room of the layout', () => {
    const rooms = [...new Set(files.map(roomOf))].sort();
    expect(rooms.filter((room) => levelOf(room) < 0)).to.deep.equal([]);
    expect(edges.length, 'imports were read').to.be.greaterThan(100);
  });

  it('imports point only downward: the foundation imports no feature, features share each other by type only', () => {
    expect(layoutViolations(edges)).to.deep.equal([]);
  });

  it('no import cycle among gateway files, type-only imports included', () => {
    expect(importCycles(edges)).to.deep.equal([]);
  });

  it('route modules leave the sync-or-promise step to the services and the pipeline', () => {
    const offending = files.filter((file) => file.endsWith('-routes.ts'))
      .filter((file) => /\b(Eventually|isPending|andThen)\b/.test(fs.readFileSync(path.join(GATEWAY, file), 'utf8')));
    expect(offending).to.deep.equal([]);
  });

  it('finds a cycle, an upward import and a feature loading another one', () => {
    const sources: Record<string, string> = {
      'http/context.ts': "import type { TokenGrant } from '../auth/token-admission';",
      'auth/token-admission.ts': "import type { AppContext } from '../http/context';",
      'http/reply.ts': "import { downloadRoutes } from '../downloads/download-routes';",
      'updates/update-routes.ts': "import { DownloadService } from '../downloads/download-service';\nimport type { Route } from '../http/route';",
      'downloads/download-routes.ts': "import type { DownloadService } from './download-service';",
    };
    const planted = gatewayEdges(Object.keys(sources), (file) => sources[file]);
    expect(importCycles(planted)).to.deep.equal([['auth/token-admission.ts', 'http/context.ts']]);
    expect(layoutViolations(planted)).to.deep.equal([
      'http/context.ts -> auth/token-admission.ts: imports upward',
      'http/reply.ts -> downloads/download-routes.ts: the foundation imports a feature room',
      "updates/update-routes.ts -> downloads/download-service.ts: a feature room loads another's code",
    ]);
  });
});
