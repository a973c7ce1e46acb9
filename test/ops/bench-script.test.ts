import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST_DIR } from '../support/node-process';

const REPO_DIR = path.dirname(DIST_DIR);

/** Where a command lives on this machine, to lend it to a PATH of its own. */
function located(command: string): string {
  const found = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  if (found.status !== 0) throw new Error(`${command} is not installed`);
  return found.stdout.trim();
}

/**
 * `npm run bench` on a machine without redis-server (and nothing to install it with): like `npm test`
 * and `npm start`, it goes through scripts/ensure-redis.sh before anything else, which says what is
 * missing, rather than building and then failing to spawn it.
 */
describe('npm run bench', function () {
  this.timeout(60_000);
  let bin: string;

  before(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-bench-path-'));
    // The tools npm and the scripts need; no redis-server, curl or apt-get.
    for (const command of ['bash', 'sh', 'node', 'dirname', 'id']) fs.symlinkSync(located(command), path.join(bin, command));
  });
  after(() => fs.rmSync(bin, { recursive: true, force: true }));

  it('stops before building with what to install when redis-server is missing', () => {
    const npm = path.join(path.dirname(fs.realpathSync(located('npm'))), 'npm-cli.js');
    const run = spawnSync(process.execPath, [npm, 'run', '--silent', 'bench'], {
      cwd: REPO_DIR, encoding: 'utf8', env: { PATH: bin, HOME: os.tmpdir() }, timeout: 50_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).to.not.equal(0);
    expect(output).to.contain('redis-server is missing: install it (Debian/Ubuntu: apt-get install redis-server)');
    expect(output).to.not.contain('ENOENT');
    expect(output, 'the build did not run').to.not.match(/compiling|dist\/ is up to date/);
  });
});
