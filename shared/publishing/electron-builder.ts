import { parse as parseYaml } from 'yaml';
import { isZipArchive } from '../releases/file-names';
import { base64Of, baseName, BuildDirectory, dirName, newFindings, sawVersion, ToolFindings } from './build-files';
import { assignMainSlots, blockmapFiles, installerKind, RankedFile, targetOfName } from './targets';

/**
 * electron-builder's output directory (app-builder-lib): the artifacts, each `{artifact}.blockmap`
 * beside the NSIS installer and the mac zip, and the channel files `latest.yml` (Windows),
 * `latest-mac.yml`, `latest-linux[-arm64|-armv7l].yml` (and `beta*.yml`... per channel), written
 * as `{version, files: [{url, sha512, size}], path, sha512, releaseDate}`. The channel files are
 * read, not uploaded: the service writes its own from the release. Subfolders (`win-unpacked/`,
 * `mac-arm64/`, `linux-unpacked/`) hold the unpacked app the artifacts were made from.
 */

interface ChannelFile {
  version: string;
  files: { url: string; sha512: string; size?: number }[];
}

const CHANNEL_FILE = /^[a-z0-9]+(-mac|-linux(-[a-z0-9]+)?)?\.yml$/;
/** What electron-builder writes beside the artifacts that is no part of the release. */
const BUILDER_FILES = new Set(['builder-debug.yml', 'builder-effective-config.yaml']);

function channelFileOf(text: string): ChannelFile | null {
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch {
    return null;
  }
  const value = parsed as Partial<ChannelFile> | null;
  if (!value || typeof value !== 'object' || !Array.isArray(value.files) || value.version === undefined) return null;
  const files = value.files.filter((file) => file && typeof file.url === 'string' && typeof file.sha512 === 'string');
  return { version: String(value.version), files };
}

export async function recogniseElectronBuilder(directory: BuildDirectory): Promise<ToolFindings | null> {
  const { files, reader } = directory;
  const channelFiles: { path: string; parsed: ChannelFile }[] = [];
  for (const file of files) {
    if (!CHANNEL_FILE.test(baseName(file.path)) || BUILDER_FILES.has(baseName(file.path))) continue;
    const parsed = channelFileOf(await reader.text(file.path));
    if (parsed) channelFiles.push({ path: file.path, parsed });
  }
  if (channelFiles.length === 0) return null;
  const findings = newFindings('electron-builder');
  const roots = new Set(channelFiles.map(({ path }) => dirName(path)));
  const inRoot = (path: string) => roots.has(dirName(path));
  const underRoot = (path: string) => [...roots].some((root) => root === '' || path.startsWith(`${root}/`));

  for (const { path, parsed } of channelFiles) {
    sawVersion(findings, parsed.version, path);
    findings.skipped.push({ path, reason: 'electron-builder channel file: read, not uploaded (the service writes its own)' });
    for (const entry of parsed.files) {
      const artifactPath = [dirName(path), entry.url].filter(Boolean).join('/');
      // The URL is the artifact's safe name (spaces as dashes) when the name had spaces.
      const artifact = files.find((file) => file.path === artifactPath)
        ?? files.find((file) => dirName(file.path) === dirName(artifactPath) && baseName(file.path).replace(/\s+/g, '-') === entry.url);
      if (!artifact) {
        findings.problems.push({ path, message: `${path} names ${entry.url}, which is not in the directory: publish the whole output directory of the build that wrote it` });
        continue;
      }
      const actual = base64Of(await reader.digest(artifact.path, 'SHA-512'));
      if (actual !== entry.sha512) {
        findings.problems.push({ path: artifact.path, message: `${artifact.path} does not have the sha512 ${path} gives it (file ${actual}, ${baseName(path)} ${entry.sha512}): the file changed after the build; build again` });
      }
    }
  }

  const planned: RankedFile[] = [];
  const rest: { path: string; size: number }[] = [];
  for (const file of files) {
    const name = baseName(file.path);
    if (!underRoot(file.path) || channelFiles.some((channel) => channel.path === file.path)) continue;
    if (!inRoot(file.path)) {
      findings.skipped.push({ path: file.path, reason: 'electron-builder\'s unpacked application, the artifacts were made from it' });
      continue;
    }
    if (BUILDER_FILES.has(name)) {
      findings.skipped.push({ path: file.path, reason: 'electron-builder\'s build log and configuration' });
      continue;
    }
    const target = targetOfName(name);
    if (isZipArchive(name) && target.platform === 'macos') {
      planned.push({ path: file.path, fileName: name, size: file.size, ...target, fileType: 'UPDATE', purpose: 'macOS update archive (what update clients install)', tool: 'electron-builder' });
      continue;
    }
    const kind = installerKind(name);
    if (kind) {
      planned.push({ path: file.path, fileName: name, size: file.size, ...target, fileType: 'MAIN', purpose: kind.purpose, tool: 'electron-builder', mainRank: kind.rank });
      continue;
    }
    rest.push(file);
  }
  for (const file of planned.filter((candidate) => candidate.platform === 'macos' && candidate.fileType === 'MAIN')) {
    const zip = planned.some((candidate) => candidate.fileType === 'UPDATE' && candidate.arch === file.arch);
    if (!zip) {
      findings.problems.push({ path: file.path ?? file.fileName, message: `${file.path}: a macOS build with no .zip for update clients (electron-updater and Squirrel.Mac install only a zip): add "zip" to mac.target in the electron-builder configuration and build again` });
    }
  }
  findings.files = assignMainSlots(planned);
  const blockmaps = blockmapFiles(rest, findings.files, 'electron-builder');
  findings.files.push(...blockmaps.files);
  for (const path of blockmaps.orphans) findings.skipped.push({ path, reason: 'blockmap of a file that is not published' });
  return findings;
}
