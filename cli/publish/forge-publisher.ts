import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';
import { joinPlans, planMadeArtifacts, planRelease, type MadeArtifact, type PublishPlan } from '../../shared/publishing';
import { archFromAlias, type Platform } from '../../shared/releases/platforms';
import type { Settings } from '../config/settings';
import { CommandContext } from '../context';
import { apiClient } from '../http/api-client';
import type { AnswerOf } from '../../shared/contract/client';
import { localReader, localVerifier } from './local-build';
import { publishRelease, PublishRefusal } from './publish-release';

/**
 * electron-forge's publish step (`electron-forge publish`, or `make` then `publish --from-dry-run`):
 * a publisher derived from the project's own `@electron-forge/publisher-base`, named in the forge
 * configuration as `{name: '<this module>', config: {url, applicationId, channel}}` (or given as
 * `new BdsForgePublisher({...})`), with the key from `BDS_API_KEY` (or the variable `keyEnv` names).
 * Forge hands every make result at once, with its platform and arch: the release is planned as
 * `bds publish` plans it (maker-squirrel's folder by the same recogniser, the other makers'
 * artifacts typed as electron-builder's), refused before a byte is sent when it is inconsistent,
 * and sent by the same code: every file to a draft, then the version in one change.
 */
export interface BdsForgeConfiguration {
  url: string;
  applicationId: string;
  channel?: string;
  /** The version's status once every file is stored (default: the application's defaultVersionStatus). */
  status?: 'draft' | 'published';
  keyEnv?: string;
  /** Files sent at a time (default 3). */
  concurrency?: number;
}

/** Forge's ForgeMakeResult: what one maker made for one platform and arch. */
export interface ForgeMakeResult {
  artifacts: string[];
  packageJSON: { version?: string; [key: string]: unknown };
  platform: string;
  arch: string;
}

export interface ForgePublishOptions {
  dir?: string;
  makeResults: ForgeMakeResult[];
  setStatusLine?: (line: string) => void;
}

interface PublisherBaseClass {
  new (config: BdsForgeConfiguration, platformsToPublishOn?: string[]): { config: BdsForgeConfiguration; readonly platforms: string[] };
}

/**
 * The forge project's PublisherBase (so forge knows the publisher as one of its own), else the one
 * installed beside this module. Forge 8's is an ES module, which Node's `require` loads (20.19+).
 */
function forgePublisherBase(): PublisherBaseClass {
  const places = [path.join(process.cwd(), 'package.json'), __filename];
  for (const place of places) {
    try {
      const loaded = createRequire(place)('@electron-forge/publisher-base') as { PublisherBase?: PublisherBaseClass; default?: PublisherBaseClass };
      const base = loaded.PublisherBase ?? loaded.default;
      if (base) return base;
    } catch {
      // Not installed there: the next place.
    }
  }
  throw new Error('the bds forge publisher needs @electron-forge/publisher-base: electron-forge projects have it (npm install --save-dev @electron-forge/publisher-base)');
}

const FORGE_PLATFORMS: Record<string, Platform> = { darwin: 'macos', mas: 'macos', win32: 'windows', linux: 'linux' };

/** A command context with the publisher's settings rather than a profile's. */
class ConfiguredContext extends CommandContext {
  constructor(private readonly fixed: Settings) {
    super({});
  }

  settings(): Settings {
    return this.fixed;
  }
}

/** The deepest folder holding every artifact: paths in the plan are relative to it. */
function commonRoot(files: string[]): string {
  let root = path.dirname(files[0]);
  while (!files.every((file) => file.startsWith(`${root}${path.sep}`))) root = path.dirname(root);
  return root;
}

const relative = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');

export class BdsForgePublisher extends forgePublisherBase() {
  readonly name = 'bds';

  async publish({ makeResults, setStatusLine }: ForgePublishOptions): Promise<void> {
    const { url, applicationId, channel } = this.config;
    const keyEnv = this.config.keyEnv ?? 'BDS_API_KEY';
    const key = process.env[keyEnv];
    if (!url || !applicationId) throw new Error('the bds forge publisher needs url and applicationId in its config');
    if (!key) throw new Error(`the bds forge publisher: set ${keyEnv} to a publish-scoped admin key`);
    const artifacts = makeResults.flatMap((result) => result.artifacts.map((file) => path.resolve(file)));
    if (artifacts.length === 0) throw new Error('the bds forge publisher: the make step made no artifacts');
    const versions = [...new Set(makeResults.map((result) => String(result.packageJSON.version ?? '')))];
    if (versions.length !== 1 || !versions[0]) {
      throw new PublishRefusal([{ path: '.', message: `the make results name ${versions.length === 1 ? 'no version' : `versions ${versions.join(', ')}`}: publish one version's make output at a time` }]);
    }
    const settings = { baseUrl: url.replace(/\/+$/, ''), apiKey: key };
    const context = new ConfiguredContext(settings);
    const client = apiClient(settings.baseUrl, settings.apiKey);
    const application = await client.getApplication({ applicationId });
    const root = commonRoot(artifacts);
    const reader = localReader(root);
    setStatusLine?.(`planning ${applicationId} ${versions[0]} from ${artifacts.length} artifacts`);
    const plan = await this.plan(makeResults, root, versions[0], application, reader);
    if (plan.problems.length > 0) throw new PublishRefusal(plan.problems);
    setStatusLine?.(`sending ${plan.files.length} files to ${applicationId} ${plan.version}`);
    await publishRelease(context, {
      applicationId, root, plan, application, channel, status: this.config.status ?? application.defaultVersionStatus,
      concurrency: this.config.concurrency ?? 3, sha256: reader.sha256,
    });
  }

  /** maker-squirrel's folders (RELEASES beside the packages) through the recogniser; every other artifact by its make result's target. */
  private async plan(makeResults: ForgeMakeResult[], root: string, version: string, application: AnswerOf<'getApplication'>, reader: ReturnType<typeof localReader>): Promise<PublishPlan> {
    const recognised = makeResults.filter((result) => result.artifacts.some((file) => path.basename(file) === 'RELEASES'));
    const made: MadeArtifact[] = [];
    for (const result of makeResults.filter((candidate) => !recognised.includes(candidate))) {
      const platform = FORGE_PLATFORMS[result.platform] ?? 'any';
      const arch = archFromAlias(result.arch) ?? 'any';
      for (const file of result.artifacts) made.push({ path: relative(root, path.resolve(file)), size: fs.statSync(file).size, platform, arch });
    }
    const parts: Parameters<typeof joinPlans>[1][number][] = [];
    if (made.length > 0) {
      parts.push({ tools: ['electron-forge'], skipped: [], ...planMadeArtifacts(made, 'electron-forge', 'add @electron-forge/maker-zip for darwin to the makers and make again') });
    }
    if (recognised.length > 0) {
      const files = recognised.flatMap((result) => result.artifacts.map((file) => ({ path: relative(root, path.resolve(file)), size: fs.statSync(file).size })));
      const found = await planRelease({
        files, reader, verify: localVerifier(root), version,
        keys: { updateSigningKey: application.updateSigningKey, sparklePublicKey: application.sparklePublicKey, retiredSigningKeys: application.retiredSigningKeys },
      });
      if (found.version && found.version !== version) {
        found.problems.push({ path: found.files[0]?.path ?? '.', message: `the Squirrel packages are of version ${found.version}, package.json says ${version}: make again` });
      }
      parts.push(found);
    }
    return joinPlans(version, parts);
  }
}

export default BdsForgePublisher;
