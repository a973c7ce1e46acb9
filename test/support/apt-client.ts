import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface AptResult {
  code: number;
  output: string;
}

/** An installed package the private root's dpkg status lists. */
export interface InstalledPackage {
  name: string;
  version: string;
  arch: string;
}

/**
 * Debian's real apt-get in a private root: its own configuration (APT_CONFIG, so nothing of this
 * machine's apt is read), sources list, keyring, auth.conf, lists and dpkg status. Downloads run as
 * root (no sandbox user, who could not read the root) and without locks.
 */
export class AptRoot {
  private constructor(readonly root: string, private readonly arch: string) {}

  static async create(directory: string, arch = 'amd64'): Promise<AptRoot> {
    const root = await fsp.mkdtemp(path.join(directory, 'apt-root-'));
    for (const dir of ['etc/apt/sources.list.d', 'etc/apt/apt.conf.d', 'etc/apt/preferences.d', 'etc/apt/auth.conf.d', 'etc/apt/keyrings',
      'etc/apt/trusted.gpg.d', 'var/lib/apt/lists/partial', 'var/cache/apt/archives/partial', 'var/lib/dpkg', 'var/log/apt', 'downloads']) {
      await fsp.mkdir(path.join(root, dir), { recursive: true });
    }
    await fsp.writeFile(path.join(root, 'var/lib/dpkg/status'), '');
    await fsp.writeFile(path.join(root, 'apt.conf'), [
      `Dir "${root}/";`,
      `Dir::State::status "${root}/var/lib/dpkg/status";`,
      `APT::Architecture "${arch}";`,
      `APT::Architectures { "${arch}"; };`,
      'Debug::NoLocking "true";',
      'APT::Sandbox::User "root";',
      'Acquire::Languages "none";',
      'Acquire::Retries "0";',
      '',
    ].join('\n'));
    return new AptRoot(root, arch);
  }

  /** The repository's key, as the portal says: `curl ... | gpg --dearmor > keyring`. */
  async trustKey(armored: Buffer | string, name = 'repository.gpg'): Promise<string> {
    const keyring = path.join(this.root, 'etc/apt/keyrings', name);
    const armoredFile = `${keyring}.asc`;
    await fsp.writeFile(armoredFile, armored);
    await fsp.rm(keyring, { force: true });
    await run('gpg', ['--batch', '--yes', '--dearmor', '-o', keyring, armoredFile]);
    return keyring;
  }

  async setSource(line: string): Promise<void> {
    await fsp.writeFile(path.join(this.root, 'etc/apt/sources.list'), `${line}\n`);
  }

  async setAuth(line: string): Promise<void> {
    await fsp.writeFile(path.join(this.root, 'etc/apt/auth.conf.d/repository.conf'), `${line}\n`, { mode: 0o600 });
  }

  /** Marks packages installed in the root's dpkg status, as if an earlier version had been installed. */
  async setInstalled(packages: readonly InstalledPackage[]): Promise<void> {
    await fsp.writeFile(path.join(this.root, 'var/lib/dpkg/status'), packages.map((pkg) => [
      `Package: ${pkg.name}`, 'Status: install ok installed', `Version: ${pkg.version}`, `Architecture: ${pkg.arch}`,
      'Maintainer: Test Vendor <vendor@example.com>', `Description: ${pkg.name}`, '',
    ].join('\n')).join('\n'));
  }

  /** Runs apt-get with the root's configuration; never throws for a failure: the exit code and output say it. */
  async aptGet(args: readonly string[], cwd = path.join(this.root, 'downloads')): Promise<AptResult> {
    try {
      const { stdout, stderr } = await run('apt-get', ['-q', '-y', ...args], { cwd, env: { ...process.env, APT_CONFIG: path.join(this.root, 'apt.conf'), LC_ALL: 'C' }, timeout: 60_000 });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }

  /** Versions apt knows of a package (`apt-cache madison`-like, from `apt-cache policy`). */
  async candidate(name: string): Promise<string | null> {
    try {
      const { stdout } = await run('apt-cache', ['policy', name], { env: { ...process.env, APT_CONFIG: path.join(this.root, 'apt.conf'), LC_ALL: 'C' } });
      const match = /Candidate: (\S+)/.exec(stdout);
      return match && match[1] !== '(none)' ? match[1] : null;
    } catch {
      return null;
    }
  }

  get architecture(): string {
    return this.arch;
  }
}

/** The Version and Architecture a downloaded .deb states, read by dpkg-deb. */
export async function debIdentity(file: string): Promise<{ version: string; arch: string }> {
  const { stdout } = await run('dpkg-deb', ['--show', '--showformat=${Version} ${Architecture}', file]);
  const [version, arch] = stdout.trim().split(' ');
  return { version, arch };
}
