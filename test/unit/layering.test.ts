import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const GATEWAY = path.join(ROOT, 'gateway');
const WORKERS = path.join(ROOT, 'workers');
const SHARED = path.join(ROOT, 'shared');

/**
 * What the CLI may load of shared/: the limits, the multipart part layout, the contract (the
 * schemas of the service's answers, whose types the CLI reads them by), and pure vocabularies it
 * checks options against: the release rules (platforms, archs, statuses, the MAIN-file rule), the
 * records' file types, and the webhook event types; and the build-output recogniser of `bds publish`
 * with the signature checks it runs before sending a byte; and the TUF keys and roots `bds tuf` makes
 * and signs on the vendor's machine.
 */
const CLI_MAY_IMPORT = [
  path.join(SHARED, 'policy'),
  path.join(SHARED, 'uploads', 'multipart-layout'),
  path.join(SHARED, 'contract'),
  path.join(SHARED, 'releases'),
  path.join(SHARED, 'publishing'),
  path.join(SHARED, 'signing'),
  path.join(SHARED, 'store', 'models'),
  path.join(SHARED, 'webhooks', 'event-types'),
  path.join(SHARED, 'tuf', 'keys'),
  path.join(SHARED, 'tuf', 'root'),
];

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

  it('no file under cli/ imports from shared/ other than the policy, the multipart layout, the contract and the pure vocabularies', () => {
    const offending = sourceFiles(path.join(ROOT, 'cli')).flatMap((file) => importsFrom(file, SHARED)
      .filter((specifier) => !CLI_MAY_IMPORT.some((allowed) => isUnder(path.resolve(path.dirname(file), specifier), allowed)))
      .map((specifier) => `${path.relative(ROOT, file)}: ${specifier}`));
    expect(offending).to.deep.equal([]);
  });
});
