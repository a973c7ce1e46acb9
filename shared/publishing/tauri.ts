import type { Arch } from '../releases/platforms';
import { archFromAlias } from '../releases/platforms';
import { baseName, BuildDirectory, firstVerifying, keysToTry, newFindings, PlannedFile, sawVersion, segments, ToolFindings } from './build-files';
import { assignMainSlots, installerKind, RankedFile, targetOfName } from './targets';

/**
 * Tauri's bundles (tauri-bundler): `target/[<triple>/]release/bundle/<kind>/` per format, with the
 * updater artifacts and their `.sig` (base64 of minisign's signature, `tauri signer sign`):
 * v2 (`createUpdaterArtifacts: true`) signs the installers themselves (`{product}_{version}_{arch}-setup.exe`,
 * `{product}_{version}_{arch}_{lang}.msi`, `{name}_{version}_{arch}.AppImage`) and `{product}.app.tar.gz`;
 * v1 (and v2's `"v1Compatible"`) zips them (`.nsis.zip`, `.msi.zip`, `.AppImage.tar.gz`). The signed
 * updater artifact of a target is its MAIN file (what the Tauri check answers), other formats are
 * offered beside it. tauri-action's `latest.json` is read for the version when it is there.
 */

const KINDS = ['msi', 'nsis', 'dmg', 'macos', 'appimage', 'deb', 'rpm'] as const;
type Kind = (typeof KINDS)[number];

const KIND_OF_NAME: ReadonlyArray<[RegExp, Kind, string]> = [
  [/-setup\.exe$/i, 'nsis', 'Windows installer (NSIS)'],
  [/\.nsis\.zip$/i, 'nsis', 'Windows update archive (NSIS, Tauri v1)'],
  [/\.msi$/i, 'msi', 'Windows installer (MSI)'],
  [/\.msi\.zip$/i, 'msi', 'Windows update archive (MSI, Tauri v1)'],
  [/\.dmg$/i, 'dmg', 'macOS disk image'],
  [/\.app\.tar\.gz$/i, 'macos', 'macOS update archive (Tauri)'],
  [/\.appimage$/i, 'appimage', 'Linux AppImage'],
  [/\.appimage\.tar\.gz$/i, 'appimage', 'Linux update archive (AppImage, Tauri v1)'],
  [/\.deb$/i, 'deb', 'Linux package (deb)'],
  [/\.rpm$/i, 'rpm', 'Linux package (rpm)'],
];

const PLATFORM_OF_KIND: Record<Kind, 'windows' | 'macos' | 'linux'> = {
  msi: 'windows', nsis: 'windows', dmg: 'macos', macos: 'macos', appimage: 'linux', deb: 'linux', rpm: 'linux',
};

/**
 * Where `bundle/<kind>/` is in a path: the index of `bundle`, or -1. A path that starts with a
 * kind's folder is in the bundle folder itself (`bds publish app target/release/bundle`): -1 there
 * is `bundle`'s place before the path.
 */
function bundleIndex(parts: string[]): number | null {
  if (parts.length >= 2 && (KINDS as readonly string[]).includes(parts[0])) return -1;
  for (let index = parts.length - 3; index >= 0; index -= 1) {
    if (parts[index] === 'bundle' && (KINDS as readonly string[]).includes(parts[index + 1])) return index;
  }
  return null;
}

/** The arch of a Rust target triple in the path (`aarch64-apple-darwin`, `universal-apple-darwin`). */
function archOfTriple(parts: string[]): Arch | null {
  for (const part of parts) {
    const match = /^([a-z0-9_]+)-(apple|pc|unknown)-/.exec(part);
    if (!match) continue;
    if (match[1] === 'universal') return 'universal';
    const arch = archFromAlias(match[1] === 'i686' ? 'ia32' : match[1]);
    if (arch) return arch;
  }
  return null;
}

/** The version in a bundle's name: `{product}_{version}_{arch}...`, or rpm's `{name}-{version}-{release}.{arch}.rpm`. */
function versionOfName(name: string): string | null {
  return /_(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)_/.exec(name)?.[1]
    ?? /-(\d+\.\d+\.\d+)-[^-]+\.[a-z0-9_]+\.rpm$/i.exec(name)?.[1] ?? null;
}

export async function recogniseTauri(directory: BuildDirectory): Promise<ToolFindings | null> {
  const { files, reader, keys, verify } = directory;
  const bundled = files.filter((file) => bundleIndex(segments(file.path)) !== null);
  const latestJson = files.find((file) => baseName(file.path) === 'latest.json');
  if (bundled.length === 0) return null;
  const findings = newFindings('tauri');
  if (latestJson) {
    try {
      const manifest = JSON.parse(await reader.text(latestJson.path)) as { version?: unknown; platforms?: unknown };
      if (typeof manifest.version === 'string' && manifest.platforms) {
        sawVersion(findings, manifest.version.replace(/^v/, ''), latestJson.path);
        findings.skipped.push({ path: latestJson.path, reason: 'tauri-action\'s update manifest: read, not uploaded (the service answers the Tauri check itself)' });
      }
    } catch {
      // Not tauri-action's manifest: left to the others.
    }
  }
  const byPath = new Map(bundled.map((file) => [file.path, file]));
  const planned: RankedFile[] = [];
  const signatures: { path: string; size: number; signs: string }[] = [];
  for (const file of bundled) {
    const parts = segments(file.path);
    const at = bundleIndex(parts) as number;
    const name = baseName(file.path);
    if (parts.length !== at + 3) {
      findings.skipped.push({ path: file.path, reason: 'inside a Tauri bundle folder (the .app, .AppDir or package tree the bundle was made from)' });
      continue;
    }
    if (name.toLowerCase().endsWith('.sig')) {
      signatures.push({ path: file.path, size: file.size, signs: file.path.slice(0, -'.sig'.length) });
      continue;
    }
    const kind = KIND_OF_NAME.find(([pattern, folder]) => pattern.test(name) && folder === parts[at + 1]);
    if (!kind) {
      findings.skipped.push({ path: file.path, reason: 'a Tauri bundler support file (scripts, icons)' });
      continue;
    }
    const version = versionOfName(name);
    if (version) sawVersion(findings, version, file.path);
    const platform = PLATFORM_OF_KIND[kind[1]];
    const guessed = targetOfName(name.replace(/\.app\.tar\.gz$/i, ''));
    const named = /(aarch64|arm64|x64|x86_64|amd64|i686|x86|armv7|armhf|universal)/i.test(name) ? guessed.arch : null;
    const arch = named ?? archOfTriple(parts) ?? 'x64';
    planned.push({ path: file.path, fileName: name, size: file.size, platform, arch, fileType: 'MAIN', purpose: kind[2], tool: 'tauri', mainRank: 10 + (installerKind(name)?.rank ?? 5) });
  }
  // A .app.tar.gz names no arch: that of the disk image beside it, when the path's triple says none.
  for (const file of planned.filter((candidate) => /\.app\.tar\.gz$/i.test(candidate.fileName))) {
    const dmg = planned.find((candidate) => candidate.fileName.toLowerCase().endsWith('.dmg'));
    if (!archOfTriple(segments(file.path ?? '')) && dmg) file.arch = dmg.arch;
  }

  const signed = new Set<string>();
  const signatureFiles: PlannedFile[] = [];
  for (const signature of signatures) {
    const target = planned.find((file) => file.path === signature.signs);
    if (!target || !byPath.has(signature.signs)) {
      findings.problems.push({ path: signature.path, message: `${signature.path} signs ${baseName(signature.signs)}, which is not in the bundle: publish the bundle folder as the build left it` });
      continue;
    }
    signed.add(target.fileName);
    // A signed updater artifact before any unsigned format; among signed ones, the installer's own rank (NSIS before MSI).
    target.mainRank = installerKind(target.fileName)?.rank ?? 5;
    const text = (await reader.text(signature.path)).trim();
    if (keys.updateSigningKey && verify) {
      const problem = await firstVerifying(keysToTry(keys, 'minisign'), (publicKey) => verify({ kind: 'minisign', text, signedPath: signature.signs, publicKey }));
      if (problem) findings.problems.push({ path: signature.path, message: `${signature.path} does not verify against ${baseName(signature.signs)} under the application's update-signing key: ${problem}; sign with the key whose public half is the application's updateSigningKey (TAURI_SIGNING_PRIVATE_KEY), or set the application's key to the one the build used` });
    }
    signatureFiles.push({ path: signature.path, fileName: baseName(signature.path), size: signature.size, platform: target.platform, arch: target.arch, fileType: 'SIGNATURE', purpose: `Tauri signature of ${target.fileName}`, tool: 'tauri', attachedTo: target.fileName });
  }
  if (keys.updateSigningKey) {
    for (const platform of ['windows', 'macos', 'linux'] as const) {
      const updatable = planned.filter((file) => file.platform === platform && /-setup\.exe$|\.msi$|\.zip$|\.app\.tar\.gz$|\.appimage$|\.tar\.gz$/i.test(file.fileName));
      if (updatable.length > 0 && !updatable.some((file) => signed.has(file.fileName))) {
        const first = updatable[0];
        findings.problems.push({ path: first.path ?? first.fileName, message: `${first.path}: a Tauri bundle without .sig while the application has an update-signing key: set bundle.createUpdaterArtifacts to true and TAURI_SIGNING_PRIVATE_KEY for the build, so Tauri writes ${first.fileName}.sig` });
      }
    }
  }
  findings.files = assignMainSlots(planned);
  // Only the MAIN file's signature is the Tauri check's; the others are kept beside their files.
  for (const signature of signatureFiles) {
    const target = findings.files.find((file) => file.fileName === signature.attachedTo);
    findings.files.push(target?.fileType === 'MAIN' ? signature : { ...signature, fileType: 'OTHER' });
  }
  return findings;
}
