import { minimatch } from 'minimatch';
import { baseName, BuildDirectory, BuildFile, BuildReader, PlannedFile, PublishPlan, SignatureVerifier, SigningKeys, ToolFindings } from './build-files';
import { recogniseElectronBuilder } from './electron-builder';
import { recogniseSquirrel, recogniseVelopack } from './nuget-releases';
import { recogniseSparkle } from './sparkle';
import { recogniseTauri } from './tauri';
import { targetOfName } from './targets';

export interface PlanOptions {
  files: readonly BuildFile[];
  reader: BuildReader;
  keys: SigningKeys;
  verify?: SignatureVerifier;
  /** The version asked for; by default the one the build tool wrote. */
  version?: string;
  /** Globs of files to upload that no tool claims (as OTHER files). */
  include?: string[];
  /** Globs of files to leave out. */
  exclude?: string[];
}

/** In order: Velopack before Squirrel, since Velopack writes a legacy RELEASES too. */
const RECOGNISERS = [recogniseElectronBuilder, recogniseTauri, recogniseVelopack, recogniseSquirrel, recogniseSparkle];

const IGNORED = /(^|\/)(\.DS_Store|Thumbs\.db|desktop\.ini)$/;

const matches = (path: string, globs: readonly string[] | undefined): boolean =>
  (globs ?? []).some((glob) => minimatch(path, glob, { dot: true, matchBase: !glob.includes('/') }));

/**
 * The release a build directory holds, or the problems that keep it from being published. Every
 * recogniser reads the files no earlier one claimed; what none claims must be named by `include`
 * (uploaded as an OTHER file) or `exclude`, else it is a problem: a file the tools did not write
 * is not sent on a guess.
 */
export async function planRelease(options: PlanOptions): Promise<PublishPlan> {
  const skipped: PublishPlan['skipped'] = [];
  let remaining = options.files.filter((file) => {
    if (IGNORED.test(file.path)) return false;
    if (matches(file.path, options.exclude)) {
      skipped.push({ path: file.path, reason: 'left out by --exclude' });
      return false;
    }
    return true;
  });
  const findings: ToolFindings[] = [];
  for (const recognise of RECOGNISERS) {
    const directory: BuildDirectory = { files: remaining, reader: options.reader, keys: options.keys, verify: options.verify, version: options.version };
    const found = await recognise(directory);
    if (!found) continue;
    findings.push(found);
    const claimed = new Set([...found.files.map((file) => file.path), ...found.skipped.map((file) => file.path)]);
    remaining = remaining.filter((file) => !claimed.has(file.path));
  }
  const files: PlannedFile[] = findings.flatMap((found) => found.files);
  const problems = findings.flatMap((found) => found.problems);
  skipped.push(...findings.flatMap((found) => found.skipped));

  for (const file of remaining) {
    if (matches(file.path, options.include)) {
      const target = targetOfName(baseName(file.path));
      files.push({ path: file.path, fileName: baseName(file.path), size: file.size, ...target, fileType: 'OTHER', purpose: 'included by --include', tool: findings[0]?.tool ?? 'electron-builder' });
    } else {
      problems.push({ path: file.path, message: `${file.path} was written by none of the recognised tools and would be uploaded as MAIN on a guess: name it with --include '<glob>' to upload it beside the release, or --exclude '<glob>' to leave it out` });
    }
  }

  const versions = new Map<string, string>();
  for (const found of findings) for (const [version, path] of found.versions) if (!versions.has(version)) versions.set(version, path);
  let version = options.version?.trim();
  if (!version) {
    if (versions.size > 1) {
      const listed = [...versions].map(([seen, path]) => `${seen} (${path})`).join(', ');
      problems.push({ path: [...versions.values()][1], message: `two versions in one directory: ${listed}; publish one build's output at a time, or name the one with --version` });
    }
    version = [...versions.keys()][0] ?? '';
  } else if (versions.size > 0 && !versions.has(version) && !versions.has(version.replace(/^v/, ''))) {
    const [seen, path] = [...versions][0];
    problems.push({ path, message: `--version ${version} differs from the version the build wrote (${seen}, ${path}): build that version, or leave --version out` });
  }
  if (findings.length === 0 && problems.length === 0) {
    problems.push({ path: '.', message: 'no output of a recognised build tool in this directory (electron-builder, Tauri, Velopack, Squirrel.Windows, Sparkle): give the folder the tool wrote (dist/, target/release/bundle/, Releases/, out/make/, the generate_appcast folder)' });
  }
  if (!version && problems.length === 0) problems.push({ path: '.', message: 'the build tool wrote no version: give one with --version' });

  const names = new Map<string, string>();
  for (const file of files) {
    const earlier = names.get(file.fileName);
    if (earlier !== undefined) problems.push({ path: file.path ?? file.fileName, message: `${file.path ?? file.fileName} and ${earlier} have the same name ${file.fileName}; a version holds one file of a name: --exclude one of them` });
    else names.set(file.fileName, file.path ?? file.fileName);
  }
  const versionFields = Object.assign({}, ...findings.map((found) => found.versionFields ?? {})) as PublishPlan['versionFields'];
  return { tools: findings.map((found) => found.tool), version, versionFields, files: orderForUpload(files), skipped, problems };
}

/** The files a signature or blockmap is attached to come first: the service checks a signature against the stored file. */
function orderForUpload(files: PlannedFile[]): PlannedFile[] {
  return [...files.filter((file) => !file.attachedTo), ...files.filter((file) => file.attachedTo)];
}

