import { expect } from 'chai';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findFreePort } from '../../shared/net';
import { CliResult, ranToEnd } from '../support/cli-process';
import { DIST_DIR } from '../support/node-process';
import { pollUntil } from '../support/poll';

/** The checkout: README.md, and the files a fresh clone of it holds. */
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

/**
 * A fresh clone of the checkout as it is now: its tracked files and the new ones git would take (not
 * what .gitignore leaves out: no node_modules, no dist), copied into `directory`.
 */
function freshClone(directory: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT }).toString('utf8');
  for (const file of listed.split('\0').filter(Boolean)) {
    const from = path.join(REPO_ROOT, file);
    if (!fs.existsSync(from)) continue; // deleted in the work tree, not yet in the index
    fs.mkdirSync(path.dirname(path.join(directory, file)), { recursive: true });
    fs.copyFileSync(from, path.join(directory, file));
    fs.chmodSync(path.join(directory, file), fs.statSync(from).mode);
  }
}

/** One line of the block, as a shell runs it, in `cwd`. */
function shell(line: string, cwd: string, env: Record<string, string>): Promise<CliResult> {
  return ranToEnd(spawn('bash', ['-c', line], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** The quick start's `npm start`, as a person runs it, in the checkout: its output, and how to stop it (Ctrl-C). */
class NpmStart {
  output = '';
  private readonly child: ChildProcess;
  private readonly exited: Promise<void>;

  constructor(line: string, cwd: string, env: Record<string, string>) {
    // A process group of its own, so Ctrl-C reaches npm, its script and the service, as in a terminal.
    this.child = spawn('bash', ['-c', line], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  /** Waits for `pattern` in what it printed. */
  printed(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return pollUntil(() => pattern.exec(this.output) ?? undefined, timeoutMs, `npm start printing ${pattern}:\n${this.output}`, 50);
  }

  async stop(): Promise<void> {
    try {
      process.kill(-(this.child.pid as number), 'SIGINT');
    } catch {
      return;
    }
    await this.exited;
  }
}

/** The environment of a person's shell whose home is inside `workDir`; npm's cache and settings are this machine's. */
function personEnv(workDir: string): Record<string, string> {
  const home = path.join(workDir, 'home');
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_STATE_HOME: path.join(home, 'state'),
    npm_config_update_notifier: 'false',
    npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), '.npm'),
    npm_config_userconfig: process.env.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc'),
  };
}

/**
 * Runs the quick start's lines after `npm start` (which is running in `started`) in `workDir`, as a
 * person would: placeholders filled in from what earlier commands printed, the build folder that
 * `bds publish` names written as electron-builder writes it; checks the download at the end.
 */
async function runAfterStart(commands: string[], started: NpmStart, workDir: string, env: Record<string, string>, baseUrl: string): Promise<string> {
  const [, adminKey] = await started.printed(/Admin API key[^\n]*\n\s+(adm_\S+)/, 300_000);
  await started.printed(/Listening on/, 60_000);
  // The banner names where to go next.
  for (const entrance of ['/console', '/portal', '/v1/openapi.json', '/docs/api']) await started.printed(new RegExp(`${baseUrl}${entrance}\\b`), 10_000);

  const publish = commands.map((line) => /\bbds publish \S+ (\S+)/.exec(line)).find(Boolean);
  expect(publish, 'the quick start publishes a build folder').to.not.equal(undefined);
  // What electron-builder writes for `--linux AppImage`: the AppImage and its channel file.
  const build = randomBytes(256 * 1024);
  const dist = path.join(workDir, publish![1]);
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(path.join(dist, 'My App-1.0.0.AppImage'), build);
  const sha512 = createHash('sha512').update(build).digest('base64');
  fs.writeFileSync(path.join(dist, 'latest-linux.yml'), `version: 1.0.0\nfiles:\n  - url: My-App-1.0.0.AppImage\n    sha512: ${sha512}\n    size: ${build.length}\npath: My-App-1.0.0.AppImage\nsha512: ${sha512}\nreleaseDate: '2026-11-29T01:00:00.000Z'\n`);

  const printed: Record<string, string> = { '<admin-key>': adminKey };
  for (const line of commands.slice(2)) {
    // The comment after a command says what it prints; placeholders there are not filled in.
    let command = line.replace(/\s+#.*$/, '').split(README_URL).join(baseUrl);
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
  return adminKey;
}

/** The quick start's commands, its first two checked to be the install and the start. */
function readQuickStart(): { commands: string[]; installLine: string; startLine: string } {
  const commands = quickStartCommands(fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8'));
  expect(commands.length).to.be.within(3, MAX_COMMANDS);
  const [installLine, startLine] = commands.slice(0, 2).map((line) => line.replace(/\s+#.*$/, ''));
  expect(installLine).to.equal('npm install');
  expect(startLine).to.equal('npm start');
  return { commands, installLine, startLine };
}

describe("README's quick start, run as written", function () {
  let started: NpmStart | undefined;
  let workDir: string | undefined;

  afterEach(async () => {
    await started?.stop();
    started = undefined;
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
    workDir = undefined;
  });

  it('runs in this checkout, installed and built, from npm start to the verified download (the fast check)', async function () {
    this.timeout(300_000);
    const { commands, startLine } = readQuickStart();
    // Inside the checkout, where `npx bds` finds this package's bin (.gitignore leaves .quick-start-*/ out).
    workDir = fs.mkdtempSync(path.join(REPO_ROOT, '.quick-start-'));
    const env = personEnv(workDir);
    const port = await findFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    started = new NpmStart(startLine, REPO_ROOT, { ...env, PORT: String(port), DATA_DIR: path.join(workDir, 'data'), PUBLIC_BASE_URL: baseUrl });
    await runAfterStart(commands, started, workDir, env, baseUrl);
  });

  it("goes from a fresh clone's npm install to a customer's verified download in at most ten commands, and a second npm start is up within 10 s", async function () {
    this.timeout(1_200_000);
    const { commands, installLine, startLine } = readQuickStart();
    // A fresh clone; the build to upload, the data and the CLI's home live inside it, where `npx bds` finds this package's `bin`.
    const cloneDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bds-quick-start-'));
    workDir = cloneDir;
    freshClone(cloneDir);
    const quickStartDir = path.join(cloneDir, '.quick-start');
    fs.mkdirSync(quickStartDir);
    const env = personEnv(quickStartDir);
    // `npm start` as written; only where it listens and keeps its data differ from a fresh clone's.
    const port = await findFreePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const serviceEnv = { ...env, PORT: String(port), DATA_DIR: path.join(quickStartDir, 'data'), PUBLIC_BASE_URL: baseUrl };
    // Before npm install, npm start says what to do.
    const early = await shell(startLine, cloneDir, serviceEnv);
    expect(early.code).to.not.equal(0);
    expect(early.stdout + early.stderr).to.include('run npm install').and.not.include('production');
    const install = await shell(installLine, cloneDir, env);
    expect(install.code, `${install.stdout}\n${install.stderr}`).to.equal(0);

    started = new NpmStart(startLine, cloneDir, serviceEnv);
    const adminKey = await runAfterStart(commands, started, quickStartDir, env, baseUrl);

    // Ctrl-C, then npm start again on the unchanged tree: nothing compiled, up in seconds, the same key.
    await started.stop();
    const restartedAt = performance.now();
    started = new NpmStart(startLine, cloneDir, serviceEnv);
    await started.printed(/Listening on/, 60_000);
    const upSeconds = (performance.now() - restartedAt) / 1000;
    expect(started.output).to.contain('build: dist/ is up to date');
    expect(started.output).to.contain('Admin API key: the one printed at first start');
    expect(upSeconds, `second npm start up after ${upSeconds.toFixed(1)} s:\n${started.output}`).to.be.below(10);
    const listed = await fetch(`${baseUrl}/v1/management/applications`, { headers: { authorization: `Bearer ${adminKey}` } });
    expect(listed.status, 'the key printed at the first start').to.equal(200);
  });
});
