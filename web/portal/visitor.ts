// The visitor's platform for the primary download button: client hints when the browser gives them
// (Chromium's navigator.userAgentData), the User-Agent otherwise (shared/releases/visitor-platform.ts).
import { visitorPlatform, type ClientHints, type VisitorPlatform } from '../../shared/releases/visitor-platform';

interface UserAgentData {
  getHighEntropyValues(hints: string[]): Promise<{ platform?: string; architecture?: string; bitness?: string }>;
}

export async function detectVisitor(): Promise<VisitorPlatform> {
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  let hints: ClientHints = {};
  if (data) {
    try {
      hints = await data.getHighEntropyValues(['architecture', 'bitness', 'platform']);
    } catch {
      // A browser may refuse high-entropy hints: the User-Agent decides.
    }
  }
  return visitorPlatform(navigator.userAgent, hints);
}

const PLATFORM_NAMES: Record<string, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux', any: 'any system' };
const ARCH_NAMES: Record<string, string> = {
  x64: 'x64', arm64: 'ARM64', ia32: '32-bit x86', armv7l: 'ARMv7', universal: 'Universal', any: '',
};

/** "macOS (Apple Silicon)", "Windows (x64)", "Linux": what a button says it downloads. */
export function targetName(platform: string, arch: string): string {
  const base = PLATFORM_NAMES[platform] ?? platform;
  if (platform === 'macos' && arch === 'arm64') return `${base} (Apple Silicon)`;
  if (platform === 'macos' && arch === 'x64') return `${base} (Intel)`;
  if (platform === 'macos' && arch === 'universal') return `${base} (Apple Silicon and Intel)`;
  const archName = ARCH_NAMES[arch] ?? arch;
  return archName ? `${base} (${archName})` : base;
}
