import { nupkgName } from '../releases/file-names';
import { archFromAlias, type Arch, type Platform } from '../releases/platforms';
import { compareVersionPrecedence } from '../releases/version-order';
import { baseName, BuildDirectory, dirName, hexOf, newFindings, PlannedFile, sawVersion, segments, ToolFindings } from './build-files';

/**
 * Velopack's `Releases/` (its packager: `releases.{channel}.json` `{Assets: [{PackageId, Version,
 * Type, FileName, SHA1, SHA256, Size}]}`, `assets.{channel}.json` naming this build's files, the
 * legacy `RELEASES`) and Squirrel.Windows' (`Squirrel --releasify`, electron-winstaller,
 * electron-forge's maker-squirrel under `out/make/squirrel.windows/<arch>/`): `RELEASES`, one
 * `SHA1 file size` line per package (ReleaseEntry), the full and delta nupkgs, `Setup.exe` and
 * `Setup.msi`. Both keep the packages of earlier releases in the folder: the newest version is
 * the release (or `--version`), and earlier packages are left aside as already shipped.
 */

interface VelopackAsset {
  PackageId?: string;
  Version?: string;
  Type?: string;
  FileName?: string;
  SHA1?: string;
  Size?: number;
}

const RELEASES_LINE = /^([0-9a-fA-F]{40})\s+(\S+)\s+(\d+)[\r]*$/;

function osOfVelopackChannel(channel: string): Platform | null {
  const os = channel.split('-').pop();
  if (os === 'win') return 'windows';
  if (os === 'osx') return 'macos';
  if (os === 'linux') return 'linux';
  return null;
}

function archOfPath(path: string): Arch | null {
  for (const part of segments(path)) {
    const arch = archFromAlias(part);
    if (arch && arch !== 'universal') return arch;
  }
  return null;
}

/** The newest of the versions, or the one asked for. */
function releaseVersion(versions: string[], asked: string | undefined): string | undefined {
  if (asked) return versions.find((version) => version === asked.replace(/^v/, '')) ?? asked;
  return [...versions].sort(compareVersionPrecedence).pop();
}

export async function recogniseVelopack(directory: BuildDirectory): Promise<ToolFindings | null> {
  const { files, reader } = directory;
  const feeds: { path: string; channel: string; assets: VelopackAsset[] }[] = [];
  for (const file of files) {
    const match = /^releases\.([A-Za-z0-9_.-]+)\.json$/.exec(baseName(file.path));
    if (!match) continue;
    try {
      const parsed = JSON.parse(await reader.text(file.path)) as { Assets?: unknown };
      if (Array.isArray(parsed.Assets)) feeds.push({ path: file.path, channel: match[1], assets: parsed.Assets as VelopackAsset[] });
    } catch {
      // Not Velopack's feed.
    }
  }
  if (feeds.length === 0) return null;
  const findings = newFindings('velopack');
  const folders = new Set(feeds.map((feed) => dirName(feed.path)));
  const local = files.filter((file) => folders.has(dirName(file.path)));
  for (const feed of feeds) {
    const platform = osOfVelopackChannel(feed.channel);
    const versions = [...new Set(feed.assets.map((asset) => String(asset.Version ?? '')).filter(Boolean))];
    const version = releaseVersion(versions, directory.version);
    if (!version) continue;
    sawVersion(findings, version, feed.path);
    findings.skipped.push({ path: feed.path, reason: 'Velopack\'s feed: read, not uploaded (the service answers releases.{channel}.json itself)' });
    const folder = dirName(feed.path);
    const at = (name: string) => [folder, name].filter(Boolean).join('/');
    const assetsFile = local.find((file) => file.path === at(`assets.${feed.channel}.json`));
    if (assetsFile) findings.skipped.push({ path: assetsFile.path, reason: 'Velopack\'s list of this build\'s files: read, not uploaded' });
    for (const legacy of local.filter((file) => /^RELEASES(-.+)?$/.test(baseName(file.path)))) {
      if (!findings.skipped.some((skipped) => skipped.path === legacy.path)) findings.skipped.push({ path: legacy.path, reason: 'Velopack\'s legacy RELEASES: read, not uploaded (the service writes its own)' });
    }
    for (const asset of feed.assets) {
      const name = String(asset.FileName ?? '');
      const file = local.find((candidate) => candidate.path === at(name));
      if (String(asset.Version) !== version) {
        if (file) findings.skipped.push({ path: file.path, reason: `package of an earlier release (${String(asset.Version)}), already shipped` });
        continue;
      }
      if (!file) {
        findings.problems.push({ path: feed.path, message: `${feed.path} lists ${name}, which is not in the directory: publish the Releases folder vpk pack wrote` });
        continue;
      }
      if (typeof asset.SHA1 === 'string' && hexOf(await reader.digest(file.path, 'SHA-1')) !== asset.SHA1.toLowerCase()) {
        findings.problems.push({ path: file.path, message: `${file.path} does not have the SHA1 ${feed.path} gives it: the file changed after vpk pack; pack again` });
      }
      const delta = String(asset.Type).toLowerCase() === 'delta';
      findings.files.push({ path: file.path, fileName: name, size: file.size, platform: platform ?? 'windows', arch: archOfPath(file.path) ?? 'any', fileType: 'UPDATE', purpose: delta ? 'Velopack delta package (from the release before)' : 'Velopack full package', tool: 'velopack' });
    }
    const platformOfFeed = platform ?? 'windows';
    for (const file of local) {
      const name = baseName(file.path);
      const installer = /-Setup\.(exe|pkg)$|^Setup\.(exe|pkg)$/i.test(name) ? 'installer' : /-Portable\.zip$/i.test(name) ? 'portable' : /\.AppImage$/i.test(name) ? 'appimage' : null;
      if (!installer || findings.files.some((planned) => planned.path === file.path)) continue;
      if (!name.toLowerCase().includes(feed.channel.toLowerCase()) && feeds.length > 1) continue;
      const purpose = installer === 'installer' ? `${platformOfFeed === 'macos' ? 'macOS' : 'Windows'} installer (Velopack Setup)` : installer === 'portable' ? 'portable archive (Velopack)' : 'Linux AppImage (Velopack)';
      findings.files.push({ path: file.path, fileName: name, size: file.size, platform: platformOfFeed, arch: archOfPath(file.path) ?? 'any', fileType: installer === 'portable' ? 'OTHER' : 'MAIN', purpose, tool: 'velopack' });
    }
  }
  return findings;
}

export async function recogniseSquirrel(directory: BuildDirectory): Promise<ToolFindings | null> {
  const { files, reader } = directory;
  const releasesFiles = files.filter((file) => baseName(file.path) === 'RELEASES');
  if (releasesFiles.length === 0) return null;
  const findings = newFindings('squirrel');
  for (const releases of releasesFiles) {
    const folder = dirName(releases.path);
    const local = files.filter((file) => dirName(file.path) === folder);
    const entries = (await reader.text(releases.path)).split('\n').map((line) => line.trim().replace(/\s+#.*$/, '')).filter(Boolean)
      .map((line) => RELEASES_LINE.exec(line)).filter((match): match is RegExpExecArray => match !== null)
      .map(([, sha1, url, size]) => ({ sha1: sha1.toLowerCase(), name: decodeURIComponent(url.slice(url.lastIndexOf('/') + 1)), size: Number(size) }));
    if (entries.length === 0) continue;
    findings.skipped.push({ path: releases.path, reason: 'Squirrel\'s RELEASES: read, not uploaded (the service writes its own)' });
    const nupkgs = local.map((file) => ({ file, name: nupkgName(baseName(file.path)) })).filter((entry) => entry.name !== null);
    const versions = [...new Set(nupkgs.map((entry) => entry.name!.version))];
    const version = releaseVersion(versions, directory.version);
    if (!version) continue;
    sawVersion(findings, version, releases.path);
    const arch = archOfPath(releases.path) ?? 'any';
    for (const { file, name } of nupkgs) {
      if (name!.version !== version) {
        findings.skipped.push({ path: file.path, reason: `package of an earlier release (${name!.version}), already shipped` });
        continue;
      }
      const entry = entries.find((candidate) => candidate.name === baseName(file.path));
      if (!entry) {
        findings.problems.push({ path: file.path, message: `${file.path} is missing from ${releases.path}: Squirrel clients would never find it; run the build (releasify) again so RELEASES lists it` });
        continue;
      }
      const sha1 = hexOf(await reader.digest(file.path, 'SHA-1'));
      if (sha1 !== entry.sha1 || entry.size !== file.size) {
        findings.problems.push({ path: file.path, message: `${file.path} does not match its RELEASES line (SHA1 ${entry.sha1}, ${entry.size} bytes; the file has ${sha1}, ${file.size} bytes): the file changed after the build; build again` });
      }
      findings.files.push({ path: file.path, fileName: baseName(file.path), size: file.size, platform: 'windows', arch, fileType: 'UPDATE', purpose: name!.kind === 'delta' ? 'Squirrel delta package (from the release before)' : 'Squirrel full package', tool: 'squirrel' });
    }
    for (const file of local) {
      const name = baseName(file.path);
      const purpose = /setup\.exe$/i.test(name) ? 'Windows installer (Squirrel Setup)' : /\.msi$/i.test(name) ? 'Windows installer for machine-wide deployment (Squirrel MSI)' : null;
      if (!purpose) continue;
      const planned: PlannedFile = { path: file.path, fileName: name, size: file.size, platform: 'windows', arch, fileType: /\.msi$/i.test(name) ? 'OTHER' : 'MAIN', purpose, tool: 'squirrel' };
      findings.files.push(planned);
    }
  }
  return findings.files.length || findings.problems.length ? findings : null;
}
