import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DIST_DIR } from '../support/node-process';
import { ServiceProcess } from '../support/service-process';

/** The checkout: README.md, and package.json whose `bin` `npx bds` runs. */
const REPO_ROOT = path.resolve(DIST_DIR, '..');
const MAX_COMMANDS = 10;
/** The address the quick start names; the test's service listens on a free port instead. */
const README_URL = 'http://localhost:3000';

/** The command lines of the first ```sh block under "## Quick start". */
function quickStartCommands(readme: string): string[] {
  const section = readme.split(/^## Quick start$/m)[1];
  if (section === undefined) throw new Error('README.md has no "## Quick start" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section.split(/^## /m)[0]);
  if (!block) throw new Error('the quick start has no ```sh block');
  return block[1].split('\n').filter((line) => line.trim() !== '');
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One line of the block, as a shell runs it, in `cwd`. */
function shell(line: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe("README's quick start, run as written", function () {
  this.timeout(300_000);
  let service: ServiceProcess | undefined;
  let workDir: string | undefined;

  after(async () => {
    await service?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it('goes from a fresh service to a customer\'s verified download in at most ten commands', async () => {
    const commands = quickStartCommands(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(commands.length).to.be.within(2, MAX_COMMANDS);
    expect(commands[0]).to.match(/^npm start\b/);

    // `npm start` on the embedded default: the same entry point, a fresh DATA_DIR and a free port.
    service = await ServiceProcess.start();
    // Inside the checkout, so `npx bds` finds this package's `bin`; the build to upload lives there.
    workDir = fs.mkdtempSync(path.join(REPO_ROOT, '.quick-start-'));
    const home = path.join(workDir, 'home');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_STATE_HOME: path.join(home, 'state'),
      npm_config_update_notifier: 'false',
    };
    const upload = commands.map((line) => /\bbds upload \S+ \S+ (\S+)/.exec(line)).find(Boolean);
    expect(upload, 'the quick start uploads a file').to.not.equal(undefined);
    const build = randomBytes(256 * 1024);
    fs.writeFileSync(path.join(workDir, upload![1]), build);

    const printed: Record<string, string> = { '<admin-key>': service.adminKey };
    for (const line of commands.slice(1)) {
      // The comment after a command says what it prints; placeholders there are not filled in.
      let command = line.replace(/\s+#.*$/, '').split(README_URL).join(service.baseUrl);
      for (const placeholder of command.match(/<[a-z-]+>/g) ?? []) {
        expect(printed, `${placeholder} was printed by a command before "${line}"`).to.have.property(placeholder);
        command = command.split(placeholder).join(printed[placeholder]);
      }
      const run = await shell(command, workDir, env);
      expect(run.code, `${line}\n${run.stdout}\n${run.stderr}`).to.equal(0);
      // What a person reads off the output to fill in the next commands' placeholders.
      const customerId = /^customerId:\s+(\S+)$/m.exec(run.stdout);
      const apiKey = /^apiKey:\s+(\S+)$/m.exec(run.stdout);
      if (customerId) printed['<customer-id>'] = customerId[1];
      if (apiKey) printed['<customer-key>'] = apiKey[1];
      if (/\bbds download\b/.test(line)) {
        expect(run.stdout).to.match(new RegExp(`sha256:${sha256(build)} verified`));
      }
    }
    const download = /\bbds download\b.* -o (\S+)/.exec(commands[commands.length - 1]);
    expect(download, 'the quick start ends with a download to a file it names').to.not.equal(null);
    expect(sha256(fs.readFileSync(path.join(workDir, download![1])))).to.equal(sha256(build));
  });
});
