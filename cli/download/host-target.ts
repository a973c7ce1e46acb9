/**
 * The platform and arch of the machine the CLI runs on, in the service's names, so a download
 * picks this machine's build unless told otherwise. Undefined where the service has no name for it
 * (the service then picks without that selector).
 */
import type { QueryOf } from '../../shared/contract/client';

/** A build as a download selects it: the platform and arch the API takes. */
export interface BuildSelector {
  platform?: NonNullable<QueryOf<'getDownloadUrl'>['platform']>;
  arch?: NonNullable<QueryOf<'getDownloadUrl'>['arch']>;
}

const PLATFORMS: Partial<Record<NodeJS.Platform, BuildSelector['platform']>> = { win32: 'windows', darwin: 'macos', linux: 'linux' };
const ARCHS: Partial<Record<string, BuildSelector['arch']>> = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', arm: 'armv7l' };

export function hostTarget(platform: NodeJS.Platform = process.platform, arch: string = process.arch): BuildSelector {
  return { platform: PLATFORMS[platform], arch: ARCHS[arch] };
}
