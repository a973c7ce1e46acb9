import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Import layouts of the code's folders (ARCHITECTURE.md, "Map of the rooms"): the imports between
 * the files of one folder, read from their source text, checked against levels (a file imports from
 * its own level and below, never above) and for cycles. One reader for every folder the layout tests
 * cover, so gateway/, shared/ and web/ are judged by the same rules.
 */

export interface ImportEdge {
  from: string;
  to: string;
  /** Whether every import of `to` in `from` brings in types only (`import type`, or every name marked `type`). */
  typeOnly: boolean;
}

/** Every .ts and .tsx file under the root, relative to it with forward slashes. */
export function sourceFiles(root: string): string[] {
  return fs.readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

function resolveUnder(root: string, from: string, specifier: string): string | undefined {
  const target = path.resolve(root, path.dirname(from), specifier);
  const relative = path.relative(root, target).split(path.sep).join('/');
  if (relative.startsWith('..')) return undefined;
  for (const candidate of [`${relative}.ts`, `${relative}.tsx`, `${relative}/index.ts`, `${relative}/index.tsx`, relative]) {
    const file = path.join(root, candidate);
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return candidate;
  }
  return `${relative}.ts`;
}

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

/**
 * The imports between files under the root (`import`, `export … from`, `import()`, `require()`);
 * imports that leave the root are not edges. `read` lets a test plant sources.
 */
export function importEdges(root: string, files: readonly string[], read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8')): ImportEdge[] {
  const edges: ImportEdge[] = [];
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
      const to = resolveUnder(root, file, specifier);
      if (to !== undefined) edges.push({ from: file, to, typeOnly: typeOnly.get(specifier) ?? false });
    }
  }
  return edges;
}

/** Every import cycle among files (type-only imports included), one per strongly connected set, members sorted. */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
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

/**
 * Levels named by path: a level holds the files whose path equals one of its members or starts
 * with one ending in `/`. The longest matching member decides, so `store/sqlite/` can sit above
 * `store/models.ts`.
 */
export class PathLevels {
  constructor(private readonly levels: readonly { name: string; members: readonly string[] }[]) {}

  /** The index of the file's level, or -1 when no member names it. */
  levelOf(file: string): number {
    let best = -1;
    let bestLength = -1;
    this.levels.forEach(({ members }, level) => {
      for (const member of members) {
        const matches = member.endsWith('/') ? file.startsWith(member) : file === member;
        if (matches && member.length > bestLength) [best, bestLength] = [level, member.length];
      }
    });
    return best;
  }

  nameOf(level: number): string {
    return this.levels[level].name;
  }

  /** Files no level names, and imports that point to a higher level than their own. */
  violations(files: readonly string[], edges: readonly ImportEdge[]): string[] {
    const found = files.filter((file) => this.levelOf(file) < 0).map((file) => `${file}: in no level of the layout`);
    for (const { from, to } of edges) {
      const [fromLevel, toLevel] = [this.levelOf(from), this.levelOf(to)];
      if (fromLevel >= 0 && toLevel > fromLevel) found.push(`${from} -> ${to}: imports upward (${this.nameOf(fromLevel)} -> ${this.nameOf(toLevel)})`);
    }
    return found;
  }
}
