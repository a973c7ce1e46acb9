import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface DnfResult {
  code: number;
  output: string;
}

/**
 * The real dnf (Debian's package) in a private install root: its own configuration file, repository
 * directory, cache and rpm database, so nothing of this machine is read or changed.
 */
export class DnfRoot {
  private constructor(readonly root: string) {}

  static async create(directory: string): Promise<DnfRoot> {
    const root = await fsp.mkdtemp(path.join(directory, 'dnf-root-'));
    for (const dir of ['etc/yum.repos.d', 'etc/dnf', 'var/cache/dnf', 'var/log', 'var/lib/dnf', 'var/lib/rpm', 'downloads']) {
      await fsp.mkdir(path.join(root, dir), { recursive: true });
    }
    await fsp.writeFile(path.join(root, 'etc/dnf/dnf.conf'), [
      '[main]',
      'gpgcheck=1',
      'install_weak_deps=0',
      'keepcache=0',
      'metadata_expire=0',
      '',
    ].join('\n'));
    await run('rpm', ['--root', root, '--initdb']);
    return new DnfRoot(root);
  }

  async setRepoFile(name: string, text: string): Promise<void> {
    await fsp.writeFile(path.join(this.root, 'etc/yum.repos.d', name), text);
  }

  /** Installs a package's header into the root's rpm database only (what check-update compares with). */
  async markInstalled(rpmFile: string): Promise<void> {
    await run('rpm', ['--root', this.root, '-i', '--justdb', '--nodeps', '--noscripts', '--nosignature', '--nodigest', rpmFile]);
  }

  /** Runs dnf in the root; never throws for a failure: the exit code and output say it (check-update answers 100 when updates exist). */
  async dnf(args: readonly string[]): Promise<DnfResult> {
    try {
      const { stdout, stderr } = await run('dnf', [
        '-y', `--installroot=${this.root}`, '--releasever=1', `--config=${path.join(this.root, 'etc/dnf/dnf.conf')}`,
        `--setopt=reposdir=${path.join(this.root, 'etc/yum.repos.d')}`, `--setopt=cachedir=${path.join(this.root, 'var/cache/dnf')}`,
        '--setopt=metadata_expire=0', ...args,
      ], { env: { ...process.env, LC_ALL: 'C.UTF-8' }, timeout: 120_000 });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
    }
  }
}

/** The name, version-release and arch an .rpm states, read by rpm. */
export async function rpmIdentity(file: string): Promise<string> {
  const { stdout } = await run('rpm', ['-qp', '--nosignature', '--nodigest', '--queryformat', '%{NAME} %{VERSION}-%{RELEASE} %{ARCH}', file]);
  return stdout.trim();
}
