import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify as toYaml } from 'yaml';
import { writeBlockmap } from './blockmaps';
import type { SparkleKey } from './sparkle-signer';
import { TauriSigningKey, tauriSign } from './tauri-signer';

/**
 * Build output folders as the tools write them, for `bds publish` to read: the file names, folder
 * layouts and metadata of electron-builder (app-builder-lib), tauri-bundler, Velopack's packager,
 * Squirrel.Windows' releasify (ReleaseEntry) and Sparkle's generate_appcast, with real digests,
 * blockmaps (electron-builder's app-builder) and signatures (tauri signer, Ed25519). The artifacts'
 * bytes are random: no client here runs them.
 */

export const buildDirectory = (prefix: string): string => fs.mkdtempSync(path.join(os.tmpdir(), `bds-build-${prefix}-`));

async function write(file: string, bytes: Buffer | string): Promise<string> {
  await fsp.mkdir(path.dirname(file), { recursive: true });
  await fsp.writeFile(file, bytes);
  return file;
}

const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('base64');
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex').toUpperCase();

/** electron-builder's channel file (`latest.yml`, `latest-mac.yml`, ...), as UpdateInfoBuilder writes it. */
function channelFile(version: string, files: { name: string; bytes: Buffer; blockMapSize?: number }[]): string {
  const [first] = files;
  return toYaml({
    version,
    files: files.map(({ name, bytes, blockMapSize }) => ({ url: name, sha512: sha512(bytes), size: bytes.length, ...(blockMapSize ? { blockMapSize } : {}) })),
    path: first.name,
    sha512: sha512(first.bytes),
    releaseDate: new Date().toISOString(),
  });
}

export interface ElectronBuilderOutput {
  directory: string;
  bytes: Map<string, Buffer>;
}

/**
 * `dist/` of `electron-builder --win nsis --mac dmg zip --x64 --linux AppImage deb` for productName
 * `Bds Demo`: artifact names as app-builder-lib's defaults (with `-Setup-` for NSIS, as a vendor sets
 * `nsis.artifactName` to keep spaces out of URLs), blockmaps of the NSIS installer and the mac zip,
 * the three channel files, the build log and the unpacked apps.
 */
export async function electronBuilderOutput(version: string, options: { size?: number; withoutZip?: boolean; directory?: string } = {}): Promise<ElectronBuilderOutput> {
  const directory = options.directory ?? buildDirectory('electron-builder');
  const size = options.size ?? 64 * 1024;
  const bytes = new Map<string, Buffer>();
  const artifact = async (name: string) => {
    const content = randomBytes(size);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
    return content;
  };
  const setup = `Bds-Demo-Setup-${version}.exe`;
  await artifact(setup);
  const setupMap = await writeBlockmap(path.join(directory, setup));
  bytes.set(`${setup}.blockmap`, setupMap.blockmap);
  const dmg = `Bds Demo-${version}.dmg`;
  await artifact(dmg);
  const zip = `Bds Demo-${version}-mac.zip`;
  const macFiles: { name: string; bytes: Buffer; blockMapSize?: number }[] = [];
  if (!options.withoutZip) {
    await artifact(zip);
    const zipMap = await writeBlockmap(path.join(directory, zip));
    bytes.set(`${zip}.blockmap`, zipMap.blockmap);
    macFiles.push({ name: zip.replace(/\s+/g, '-'), bytes: bytes.get(zip)!, blockMapSize: zipMap.blockmap.length });
  }
  macFiles.push({ name: dmg.replace(/\s+/g, '-'), bytes: bytes.get(dmg)! });
  const appImage = `Bds Demo-${version}.AppImage`;
  await artifact(appImage);
  const deb = `bds-demo_${version}_amd64.deb`;
  await artifact(deb);
  await write(path.join(directory, 'latest.yml'), channelFile(version, [{ name: setup, bytes: bytes.get(setup)!, blockMapSize: setupMap.blockmap.length }]));
  await write(path.join(directory, 'latest-mac.yml'), channelFile(version, macFiles));
  await write(path.join(directory, 'latest-linux.yml'), channelFile(version, [{ name: appImage.replace(/\s+/g, '-'), bytes: bytes.get(appImage)! }]));
  await write(path.join(directory, 'builder-debug.yml'), 'x64:\n  firstOrDefaultFilePatterns:\n    - \'**/*\'\n');
  await write(path.join(directory, 'builder-effective-config.yaml'), `directories:\n  output: dist\nproductName: Bds Demo\n`);
  await write(path.join(directory, 'win-unpacked', 'Bds Demo.exe'), randomBytes(128));
  await write(path.join(directory, 'mac-arm64', 'Bds Demo.app', 'Contents', 'Info.plist'), '<plist/>');
  await write(path.join(directory, 'linux-unpacked', 'bds-demo'), randomBytes(128));
  return { directory, bytes };
}

export interface TauriOutput {
  directory: string;
  bytes: Map<string, Buffer>;
  signatures: Map<string, string>;
}

/**
 * `src-tauri/target/release/bundle` of Tauri v2 with `createUpdaterArtifacts: true` for productName
 * `BdsDemo`: each updater artifact with the `.sig` `tauri signer sign` writes (unsigned when no key),
 * and the bundler's folders (the .app, the AppDir) beside them. `macArch` is the Mac build's triple arch.
 */
export async function tauriOutput(version: string, key: TauriSigningKey | null, options: { directory?: string; unsigned?: string[] } = {}): Promise<TauriOutput> {
  const root = options.directory ?? buildDirectory('tauri');
  const bundle = path.join(root, 'target', 'release', 'bundle');
  const bytes = new Map<string, Buffer>();
  const signatures = new Map<string, string>();
  const artifact = async (folder: string, name: string, signed: boolean) => {
    const content = randomBytes(48 * 1024);
    bytes.set(name, content);
    const file = await write(path.join(bundle, folder, name), content);
    if (signed && key && !(options.unsigned ?? []).includes(name)) signatures.set(name, await tauriSign(key, file));
  };
  await artifact('nsis', `BdsDemo_${version}_x64-setup.exe`, true);
  await artifact('msi', `BdsDemo_${version}_x64_en-US.msi`, true);
  await artifact('macos', 'BdsDemo.app.tar.gz', true);
  await artifact('dmg', `BdsDemo_${version}_aarch64.dmg`, false);
  await artifact('appimage', `bds-demo_${version}_amd64.AppImage`, true);
  await artifact('deb', `bds-demo_${version}_amd64.deb`, false);
  await write(path.join(bundle, 'macos', 'BdsDemo.app', 'Contents', 'Info.plist'), '<plist/>');
  await write(path.join(bundle, 'dmg', 'bundle_dmg.sh'), '#!/bin/sh\n');
  await write(path.join(bundle, 'appimage', 'bds-demo.AppDir', 'AppRun'), '#!/bin/sh\n');
  return { directory: path.join(root, 'target', 'release', 'bundle'), bytes, signatures };
}

export interface NugetOutput {
  directory: string;
  bytes: Map<string, Buffer>;
}

/**
 * Velopack's `Releases/` after `vpk pack --packId MyApp --packVersion <version>` on Windows (channel
 * `win`), with the packages of the release before it still there: `releases.win.json`,
 * `assets.win.json`, the legacy `RELEASES`, `MyApp-win-Setup.exe` and `MyApp-win-Portable.zip`.
 */
export async function velopackOutput(version: string, previous: string): Promise<NugetOutput> {
  const directory = path.join(buildDirectory('velopack'), 'Releases');
  const bytes = new Map<string, Buffer>();
  const assets: Record<string, unknown>[] = [];
  for (const [packageVersion, type, name] of [[previous, 'Full', `MyApp-${previous}-full.nupkg`], [version, 'Full', `MyApp-${version}-full.nupkg`], [version, 'Delta', `MyApp-${version}-delta.nupkg`]] as const) {
    const content = randomBytes(32 * 1024);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
    assets.push({ PackageId: 'MyApp', Version: packageVersion, Type: type, FileName: name, SHA1: sha1(content), SHA256: createHash('sha256').update(content).digest('hex').toUpperCase(), Size: content.length, NotesMarkdown: '', NotesHtml: '' });
  }
  for (const name of ['MyApp-win-Setup.exe', 'MyApp-win-Portable.zip']) {
    const content = randomBytes(40 * 1024);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
  }
  await write(path.join(directory, 'releases.win.json'), JSON.stringify({ Assets: assets }));
  await write(path.join(directory, 'assets.win.json'), JSON.stringify({ RelativeFileNames: [`MyApp-${version}-full.nupkg`, `MyApp-${version}-delta.nupkg`, 'MyApp-win-Setup.exe', 'MyApp-win-Portable.zip'] }));
  await write(path.join(directory, 'RELEASES'), assets.map((asset) => `${String(asset.SHA1)} ${String(asset.FileName)} ${String(asset.Size)}`).join('\n'));
  return { directory, bytes };
}

/**
 * electron-forge's `out/make/squirrel.windows/x64/` (maker-squirrel over electron-winstaller): the
 * full and delta nupkgs, `MyApp-<version> Setup.exe`, `MyApp-<version>.msi`... and `RELEASES`, one
 * `SHA1 name size` line per package as ReleaseEntry writes them. `unlisted` packages are left out of it.
 */
export async function squirrelOutput(version: string, options: { unlisted?: string[] } = {}): Promise<NugetOutput> {
  const directory = path.join(buildDirectory('squirrel'), 'out', 'make', 'squirrel.windows', 'x64');
  const bytes = new Map<string, Buffer>();
  const lines: string[] = [];
  for (const name of [`MyApp-${version}-full.nupkg`, `MyApp-${version}-delta.nupkg`]) {
    const content = randomBytes(32 * 1024);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
    if (!(options.unlisted ?? []).includes(name)) lines.push(`${sha1(content)} ${name} ${content.length}`);
  }
  for (const name of [`MyApp-${version} Setup.exe`, 'MyApp-setup.msi']) {
    const content = randomBytes(40 * 1024);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
  }
  // ReleaseEntry writes CRLF-free lines joined by \n, no trailing newline.
  await write(path.join(directory, 'RELEASES'), lines.join('\n'));
  return { directory, bytes };
}

/**
 * A folder `generate_appcast` ran over: the new archive, the one of the release before (kept), the
 * delta between them (`{App}{new}-{old}.delta`), and `appcast.xml` with each enclosure's
 * `sparkle:edSignature` (made by `sign`, the Ed25519 key) and length.
 */
export async function sparkleOutput(key: SparkleKey, release: { version: string; build: string }, previous: { version: string; build: string }, options: { badSignature?: boolean } = {}): Promise<NugetOutput> {
  const directory = buildDirectory('sparkle');
  const bytes = new Map<string, Buffer>();
  const file = async (name: string) => {
    const content = randomBytes(36 * 1024);
    bytes.set(name, content);
    await write(path.join(directory, name), content);
    return content;
  };
  const archive = await file(`BdsDemo-${release.version}.zip`);
  const old = await file(`BdsDemo-${previous.version}.zip`);
  const delta = await file(`BdsDemo${release.build}-${previous.build}.delta`);
  const signature = (content: Buffer) => (options.badSignature ? key.sign(randomBytes(16)) : key.sign(content));
  const base = 'https://example.com/updates';
  const appcast = `<?xml version="1.0" standalone="yes"?>
<rss xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle" version="2.0">
    <channel>
        <title>BdsDemo</title>
        <item>
            <title>${release.version}</title>
            <pubDate>Sun, 29 Nov 2026 01:00:00 +0000</pubDate>
            <sparkle:version>${release.build}</sparkle:version>
            <sparkle:shortVersionString>${release.version}</sparkle:shortVersionString>
            <sparkle:minimumSystemVersion>11.0</sparkle:minimumSystemVersion>
            <enclosure url="${base}/BdsDemo-${release.version}.zip" length="${archive.length}" type="application/octet-stream" sparkle:edSignature="${signature(archive)}"/>
            <sparkle:deltas>
                <enclosure url="${base}/BdsDemo${release.build}-${previous.build}.delta" sparkle:deltaFrom="${previous.build}" length="${delta.length}" type="application/octet-stream" sparkle:edSignature="${signature(delta)}"/>
            </sparkle:deltas>
        </item>
        <item>
            <title>${previous.version}</title>
            <pubDate>Sat, 28 Nov 2026 01:00:00 +0000</pubDate>
            <sparkle:version>${previous.build}</sparkle:version>
            <sparkle:shortVersionString>${previous.version}</sparkle:shortVersionString>
            <sparkle:minimumSystemVersion>11.0</sparkle:minimumSystemVersion>
            <enclosure url="${base}/BdsDemo-${previous.version}.zip" length="${old.length}" type="application/octet-stream" sparkle:edSignature="${key.sign(old)}"/>
        </item>
    </channel>
</rss>
`;
  await write(path.join(directory, 'appcast.xml'), appcast);
  return { directory, bytes };
}
