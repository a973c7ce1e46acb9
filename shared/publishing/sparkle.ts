import { XMLParser } from 'fast-xml-parser';
import { baseName, BuildDirectory, dirName, firstVerifying, keysToTry, newFindings, PlannedFile, sawVersion, ToolFindings } from './build-files';

/**
 * Sparkle's `generate_appcast` folder: the archives (`.zip`, `.dmg`, `.tar.*`, `.pkg`), the
 * `.delta` files it made between releases, and `appcast.xml`, whose items carry
 * `sparkle:version` (CFBundleVersion), `sparkle:shortVersionString`, `sparkle:minimumSystemVersion`,
 * the `enclosure` (`url`, `length`, `sparkle:edSignature`) and `sparkle:deltas` (each `enclosure`
 * with `sparkle:deltaFrom` and its signature). The folder keeps earlier archives; the release is the
 * newest item whose archive is there (or `--version`). Each edSignature is uploaded as
 * `{archive}.sig` (what `sign_update -p` prints: base64 of the Ed25519 signature).
 */

interface Enclosure {
  '@_url'?: string;
  '@_length'?: string;
  '@_sparkle:edSignature'?: string;
  '@_sparkle:version'?: string;
  '@_sparkle:shortVersionString'?: string;
  '@_sparkle:deltaFrom'?: string;
}

interface Item {
  'sparkle:version'?: unknown;
  'sparkle:shortVersionString'?: unknown;
  'sparkle:minimumSystemVersion'?: unknown;
  enclosure?: Enclosure;
  'sparkle:deltas'?: { enclosure?: Enclosure | Enclosure[] };
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false, isArray: (name) => name === 'item' });

const asText = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value).trim());
const nameOfUrl = (url: string): string => decodeURIComponent(url.replace(/[?#].*$/, '').slice(url.lastIndexOf('/') + 1));
const asList = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

export async function recogniseSparkle(directory: BuildDirectory): Promise<ToolFindings | null> {
  const { files, reader, keys, verify } = directory;
  const appcast = files.find((file) => baseName(file.path) === 'appcast.xml');
  if (!appcast) return null;
  let items: Item[];
  try {
    const parsed = parser.parse(await reader.text(appcast.path)) as { rss?: { channel?: { item?: Item[] } } };
    items = parsed.rss?.channel?.item ?? [];
  } catch {
    return null;
  }
  const findings = newFindings('sparkle');
  findings.skipped.push({ path: appcast.path, reason: 'Sparkle\'s appcast: read, not uploaded (the service writes the appcast)' });
  const folder = dirName(appcast.path);
  const local = (name: string) => files.find((file) => file.path === [folder, name].filter(Boolean).join('/'));
  const releases = items.map((item) => {
    const enclosure = item.enclosure ?? {};
    const bundleVersion = asText(item['sparkle:version']) ?? asText(enclosure['@_sparkle:version']);
    const shortVersion = asText(item['sparkle:shortVersionString']) ?? asText(enclosure['@_sparkle:shortVersionString']) ?? bundleVersion;
    return { item, enclosure, bundleVersion, shortVersion, archive: enclosure['@_url'] ? local(nameOfUrl(enclosure['@_url'])) : undefined };
  }).filter((release) => release.archive && release.shortVersion);
  if (releases.length === 0) return findings;
  const asked = directory.version?.replace(/^v/, '');
  const release = asked ? releases.find((candidate) => candidate.shortVersion === asked) : releases[0];
  if (!release) {
    findings.problems.push({ path: appcast.path, message: `${appcast.path} has no item for version ${asked} with its archive in the folder` });
    return findings;
  }
  for (const earlier of releases.filter((candidate) => candidate !== release)) {
    findings.skipped.push({ path: earlier.archive!.path, reason: `archive of an earlier release (${earlier.shortVersion}), already shipped` });
  }
  sawVersion(findings, release.shortVersion!, appcast.path);
  findings.versionFields = {
    ...(release.bundleVersion && release.bundleVersion !== release.shortVersion ? { bundleVersion: release.bundleVersion } : {}),
    ...(asText(release.item['sparkle:minimumSystemVersion']) ? { minimumSystemVersion: asText(release.item['sparkle:minimumSystemVersion']) } : {}),
  };
  const archives: { file: { path: string; size: number }; enclosure: Enclosure; delta: boolean }[] = [{ file: release.archive!, enclosure: release.enclosure, delta: false }];
  for (const delta of asList(release.item['sparkle:deltas']?.enclosure)) {
    const file = delta['@_url'] ? local(nameOfUrl(delta['@_url'])) : undefined;
    if (file) archives.push({ file, enclosure: delta, delta: true });
    else findings.problems.push({ path: appcast.path, message: `${appcast.path} lists the delta ${delta['@_url']}, which is not in the folder: publish the folder generate_appcast wrote` });
  }
  for (const { file, enclosure, delta } of archives) {
    const fileName = baseName(file.path);
    const planned: PlannedFile = { path: file.path, fileName, size: file.size, platform: 'macos', arch: 'universal', fileType: delta ? 'OTHER' : 'MAIN', purpose: delta ? `Sparkle delta update from build ${enclosure['@_sparkle:deltaFrom'] ?? '?'}` : 'macOS update archive (Sparkle)', tool: 'sparkle' };
    findings.files.push(planned);
    if (enclosure['@_length'] !== undefined && Number(enclosure['@_length']) !== file.size) {
      findings.problems.push({ path: file.path, message: `${file.path} has ${file.size} bytes, ${appcast.path} says ${enclosure['@_length']}: the archive changed after generate_appcast; run it again` });
    }
    const signature = enclosure['@_sparkle:edSignature'];
    if (!signature) {
      if (keys.sparklePublicKey) findings.problems.push({ path: file.path, message: `${file.path} has no sparkle:edSignature in ${appcast.path}: run generate_appcast with the private key whose public half is the application's sparklePublicKey` });
      continue;
    }
    if (keys.sparklePublicKey && verify) {
      const problem = await firstVerifying(keysToTry(keys, 'sparkle'), (publicKey) => verify({ kind: 'sparkle', text: signature, signedPath: file.path, publicKey }));
      if (problem) findings.problems.push({ path: file.path, message: `the sparkle:edSignature of ${file.path} in ${appcast.path} does not verify under the application's sparklePublicKey: ${problem}; sign with the key whose public half is the application's sparklePublicKey` });
    }
    findings.files.push({ path: null, content: signature, fileName: `${fileName}.sig`, size: signature.length, platform: 'macos', arch: 'universal', fileType: 'SIGNATURE', purpose: `Sparkle signature of ${fileName} (from ${baseName(appcast.path)})`, tool: 'sparkle', attachedTo: fileName });
  }
  return findings;
}
