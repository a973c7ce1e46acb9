import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A package the tests build: what both builders take. */
export interface PackageSpec {
  name: string;
  /** Debian's or rpm's version as the package states it. */
  version: string;
  /** Debian's arch name (amd64, arm64, all) or rpm's (x86_64, aarch64, noarch). */
  arch: string;
  /** Text put in the package's one file, so builds differ. */
  payload?: string;
}

/** A real `.deb` built by dpkg-deb (control.tar compressed as dpkg-deb does by default, or as `compression` says). */
export async function buildDeb(directory: string, spec: PackageSpec, compression: 'gzip' | 'xz' | 'zstd' = 'xz'): Promise<string> {
  const root = await fsp.mkdtemp(path.join(directory, 'deb-'));
  await fsp.mkdir(path.join(root, 'DEBIAN'));
  await fsp.mkdir(path.join(root, 'usr/share', spec.name), { recursive: true });
  await fsp.writeFile(path.join(root, 'usr/share', spec.name, 'VERSION'), spec.payload ?? `${spec.name} ${spec.version} ${spec.arch}\n`);
  await fsp.writeFile(path.join(root, 'DEBIAN/control'), [
    `Package: ${spec.name}`,
    `Version: ${spec.version}`,
    `Architecture: ${spec.arch}`,
    'Maintainer: Test Vendor <vendor@example.com>',
    'Section: utils',
    'Priority: optional',
    `Description: ${spec.name} for the repository tests`,
    ' A package built by dpkg-deb in a test.',
    '',
  ].join('\n'));
  const output = path.join(directory, `${spec.name}_${spec.version}_${spec.arch}.deb`);
  await run('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', root, output]);
  return output;
}

/** A real `.rpm` built by rpmbuild from a spec file (no sources: the one file is written by %install). */
export async function buildRpm(directory: string, spec: PackageSpec & { release?: string }): Promise<string> {
  const top = await fsp.mkdtemp(path.join(directory, 'rpm-'));
  const release = spec.release ?? '1';
  const specFile = path.join(top, `${spec.name}.spec`);
  await fsp.writeFile(specFile, [
    `Name: ${spec.name}`,
    `Version: ${spec.version}`,
    `Release: ${release}`,
    `Summary: ${spec.name} for the repository tests`,
    'License: MIT',
    ...(spec.arch === 'noarch' ? ['BuildArch: noarch'] : []),
    '',
    '%description',
    'A package built by rpmbuild in a test.',
    '',
    '%install',
    `mkdir -p %{buildroot}/usr/share/${spec.name}`,
    `echo '${(spec.payload ?? `${spec.name} ${spec.version} ${spec.arch}`).replace(/'/g, '')}' > %{buildroot}/usr/share/${spec.name}/VERSION`,
    '',
    '%files',
    `/usr/share/${spec.name}/VERSION`,
    '',
  ].join('\n'));
  await run('rpmbuild', ['-bb', '--target', spec.arch, '--define', `_topdir ${top}`, '--define', '_build_id_links none', specFile]);
  const built = path.join(top, 'RPMS', spec.arch, `${spec.name}-${spec.version}-${release}.${spec.arch}.rpm`);
  const output = path.join(directory, path.basename(built));
  await fsp.rename(built, output);
  return output;
}
