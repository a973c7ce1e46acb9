import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

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
  ['app.ts', 'gateway-services.ts', 'route-table.ts', 'gateway-process.ts'],
];
const FEATURES = new Set(LEVELS[6]);
const FOUNDATION = new Set(LEVELS.slice(0, 4).flat());

interface Edge { from: string; to: string; typeOnly: boolean }

/** Every .ts file under gateway/, relative to it. */
function gatewayFiles(): string[] {
  return fs.readdirSync(GATEWAY, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(GATEWAY, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

/** The room of a gateway file: its top folder, or the file itself at the top. */
const roomOf = (file: string): string => file.split('/')[0];

function resolveInGateway(from: string, specifier: string): string | undefined {
  const target = path.resolve(GATEWAY, path.dirname(from), specifier);
  const relative = path.relative(GATEWAY, target).split(path.sep).join('/');
  if (relative.startsWith('..')) return undefined;
  for (const candidate of [`${relative}.ts`, `${relative}/index.ts`, relative]) {
    if (fs.existsSync(path.join(GATEWAY, candidate)) && fs.statSync(path.join(GATEWAY, candidate)).isFile()) return candidate;
  }
  return `${relative}.ts`;
}

/** Whether an import or re-export brings in types only (`import type`, or every name marked `type`). */
function isTypeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause === undefined) return false;
    if (clause.isTypeOnly) return true;
    const bindings = clause.namedBindings;
    return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings)
      && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
  }
  return statement.isTypeOnly;
}

/** The imports between gateway files, from the source text (`import`, `export … from`, `import()`, `require()`). */
function gatewayEdges(files: readonly string[] = gatewayFiles(), read = (file: string) => fs.readFileSync(path.join(GATEWAY, file), 'utf8')): Edge[] {
  const edges: Edge[] = [];
  for (const file of files) {
    const text = read(file);
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    const typeOnly = new Map<string, boolean>();
    for (const statement of source.statements) {
      if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const specifier = statement.moduleSpecifier.text;
        typeOnly.set(specifier, (typeOnly.get(specifier) ?? true) && isTypeOnly(statement));
      }
    }
    for (const { fileName: specifier } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const to = resolveInGateway(file, specifier);
      if (to !== undefined) edges.push({ from: file, to, typeOnly: typeOnly.get(specifier) ?? false });
    }
  }
  return edges;
}

const levelOf = (room: string): number => LEVELS.findIndex((rooms) => rooms.includes(room));

/** Imports that point up, from the foundation into a feature, or between features other than by type. */
function layoutViolations(edges: readonly Edge[]): string[] {
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

/** Every import cycle among files (type-only imports included), one per strongly connected set. */
function importCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (next.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return cycles;
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
