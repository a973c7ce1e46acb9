/**
 * The platform and arch of the machine the CLI runs on, in the service's names, so a download
 * picks this machine's build unless told otherwise. Undefined where the service has no name for it
 * (the service then picks without that selector).
 */
const PLATFORMS: Partial<Record<NodeJS.Platform, string>> = { win32: 'windows', darwin: 'macos', linux: 'linux' };
const ARCHS: Partial<Record<string, string>> = { x64: 'x64', arm64: 'arm64', ia32: 'ia32', arm: 'armv7l' };

export function hostTarget(platform: NodeJS.Platform = process.platform, arch: string = process.arch): { platform?: string; arch?: string } {
  return { platform: PLATFORMS[platform], arch: ARCHS[arch] };
}
