import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { SHARED_ADAPTERS_LEVEL, SHARED_LEVELS } from '../support/shared-levels';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GATEWAY = path.join(ROOT, 'gateway');
const WORKERS = path.join(ROOT, 'workers');
const SHARED = path.join(ROOT, 'shared');

/**
 * What the CLI may load of shared/: what a browser page may (the levels below the adapters: limits,
 * vocabularies, the contract, the release rules, the build-output recogniser and the repository setup
 * texts, and the TUF keys and roots `bds tuf` makes and signs on the vendor's machine), never a store, storage, Redis or a process's assembly.
 */
const cliMayImport = (target: string): boolean => {
  const inShared = path.relative(SHARED, target).split(path.sep).join('/');
  const level = SHARED_LEVELS.levelOf(/\.tsx?$/.test(inShared) ? inShared : `${inShared}.ts`);
  const asFolder = SHARED_LEVELS.levelOf(`${inShared}/index.ts`);
  return (level >= 0 && level < SHARED_ADAPTERS_LEVEL) || (level < 0 && asFolder >= 0 && asFolder < SHARED_ADAPTERS_LEVEL);
};

/** Every .ts file under `directory` in the source tree. */
function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const isUnder = (target: string, layer: string): boolean => target === layer || target.startsWith(layer + path.sep);

/** What `file` imports from `layer`: imports, type imports, re-exports, require() and import(). */
function importsFrom(file: string, layer: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => isUnder(path.resolve(path.dirname(file), specifier), layer));
}

/**
 * shared/ is loaded by both processes and workers/ by the worker process: neither may load the
 * gateway's HTTP code. The CLI talks to the service over HTTP only: it loads neither process's code.
 */
const RULES: { layer: string; forbidden: string[] }[] = [
  { layer: 'shared', forbidden: [GATEWAY] },
  { layer: 'workers', forbidden: [GATEWAY] },
  { layer: 'cli', forbidden: [GATEWAY, WORKERS] },
];

describe('layering', () => {
  for (const { layer, forbidden } of RULES) {
    for (const target of forbidden) {
      it(`no file under ${layer}/ imports from ${path.basename(target)}/`, () => {
        const files = sourceFiles(path.join(ROOT, layer));
        expect(files, `${layer}/ holds source files`).to.not.be.empty;
        const offending = files.flatMap((file) => importsFrom(file, target).map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`));
        expect(offending).to.deep.equal([]);
      });
    }
  }

  it("no file under cli/ imports code of shared/'s adapters or above", () => {
    const offending = sourceFiles(path.join(ROOT, 'cli')).flatMap((file) => importsFrom(file, SHARED)
      .filter((specifier) => !cliMayImport(path.resolve(path.dirname(file), specifier)))
      .map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`));
    expect(offending).to.deep.equal([]);
  });
});
