import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_DIR } from '../support/node-process';

const REPO_DIR = path.dirname(DIST_DIR);

/**
 * scripts/build.sh, which `npm start`, `npm test` and npm's prepare step run, on a small project of
 * its own shape (a tsconfig.json whose include names the sources, the repository's node_modules):
 * compiling this repository would take a minute per case.
 */
describe('build script', function () {
  this.timeout(60_000);
  let project: string;

  const run = (...args: string[]) => {
    const result = spawnSync('bash', [path.join(project, 'scripts', 'build.sh'), ...args], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  const compiled = () => path.join(project, 'dist', 'src', 'greeting.js');
  /** Sets a file's modification time `seconds` from now: no waiting for the clock to move. */
  const age = (file: string, seconds: number) => {
    const when = new Date(Date.now() + seconds * 1000);
    fs.utimesSync(file, when, when);
  };

  beforeEach(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-build-'));
    fs.mkdirSync(path.join(project, 'scripts'));
    // build.sh ends with the browser apps' build, which has nothing to do in a project without web/.
    for (const script of ['build.sh', 'build-web.sh']) fs.copyFileSync(path.join(REPO_DIR, 'scripts', script), path.join(project, 'scripts', script));
    fs.mkdirSync(path.join(project, 'src'));
    fs.writeFileSync(path.join(project, 'src', 'greeting.ts'), 'export const greeting: string = "hello";\n');
    const tsconfig = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'tsconfig.json'), 'utf8'));
    tsconfig.compilerOptions.types = ['node'];
    tsconfig.include = ['src', 'absent'];
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    fs.symlinkSync(path.join(REPO_DIR, 'node_modules'), path.join(project, 'node_modules'));
  });

  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('compiles once, then leaves dist/ untouched while no source changed', () => {
    const first = run();
    expect(first.status, first.output).to.equal(0);
    expect(first.output).to.contain('compiling');
    age(compiled(), -60);
    const before = fs.statSync(compiled()).mtimeMs;

    const second = run();
    expect(second.status, second.output).to.equal(0);
    expect(second.output).to.contain('dist/ is up to date');
    expect(second.output).not.to.contain('compiling');
    expect(fs.statSync(compiled()).mtimeMs).to.equal(before);
  });

  it("marks the package's bin entry points executable, which tsc writes 0644, on every run", () => {
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'greeting', bin: { greet: 'dist/src/greeting.js', gone: 'dist/src/absent.js' } }));
    const first = run();
    expect(first.status, first.output).to.equal(0);
    expect(fs.statSync(compiled()).mode & 0o111).to.equal(0o111);
    // An up-to-date dist/ whose entry point lost the bit gets it back.
    fs.chmodSync(compiled(), 0o644);
    const second = run();
    expect(second.status, second.output).to.equal(0);
    expect(second.output).to.contain('dist/ is up to date');
    expect(fs.statSync(compiled()).mode & 0o111).to.equal(0o111);
  });

  it('compiles again when a source or tsconfig.json changed', () => {
    expect(run().status).to.equal(0);
    fs.writeFileSync(path.join(project, 'src', 'greeting.ts'), 'export const greeting: string = "hello again";\n');
    age(path.join(project, 'src', 'greeting.ts'), 5);
    const afterSource = run();
    expect(afterSource.output).to.contain('compiling');
    expect(fs.readFileSync(compiled(), 'utf8')).to.contain('hello again');

    age(path.join(project, 'tsconfig.json'), 10);
    expect(run().output).to.contain('compiling');
  });

  it('fails, and leaves no fresh stamp, when the sources do not compile', () => {
    expect(run().status).to.equal(0);
    fs.writeFileSync(path.join(project, 'src', 'greeting.ts'), 'export const greeting: string = 42;\n');
    age(path.join(project, 'src', 'greeting.ts'), 5);
    expect(run().status).to.not.equal(0);
    expect(run().output).to.contain('compiling');
  });

  describe('without TypeScript (a production install omits dev dependencies)', () => {
    const withoutTypeScript = () => {
      fs.unlinkSync(path.join(project, 'node_modules'));
      fs.mkdirSync(path.join(project, 'node_modules'));
    };

    it('starts from an up-to-date dist/', () => {
      expect(run().status).to.equal(0);
      withoutTypeScript();
      const result = run();
      expect(result.status, result.output).to.equal(0);
      expect(result.output).to.contain('dist/ is up to date');
    });

    it('refuses a stale dist/ saying how to build, and only warns at install', () => {
      withoutTypeScript();
      const atStart = run();
      expect(atStart.status).to.equal(1);
      expect(atStart.output).to.contain('run npm install').and.contain('npm install && npm run build, then npm prune --omit=dev');
      const atInstall = run('--at-install');
      expect(atInstall.status).to.equal(0);
      expect(atInstall.output).to.contain('warning');
    });
  });

  it('builds nothing at install before the sources are there (a Docker dependency layer)', () => {
    fs.unlinkSync(path.join(project, 'tsconfig.json'));
    const result = run('--at-install');
    expect(result.status).to.equal(0);
    expect(fs.existsSync(path.join(project, 'dist'))).to.equal(false);
  });

  it('is what npm start, npm test, npm run build and npm install run', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_DIR, 'package.json'), 'utf8'));
    expect(pkg.scripts.build).to.equal('bash scripts/build.sh');
    expect(pkg.scripts.prepare).to.equal('bash scripts/build.sh --at-install');
    for (const script of ['start.sh', 'test.sh']) {
      const text = fs.readFileSync(path.join(REPO_DIR, 'scripts', script), 'utf8');
      expect(text, script).to.match(/^bash scripts\/build\.sh$/m);
      expect(text, script).not.to.match(/\btsc\b/);
    }
  });
});
