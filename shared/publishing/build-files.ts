import type { Arch, Platform } from '../releases/platforms';
import type { FileType } from '../releases/file-types';

/**
 * What a build directory holds, as the recogniser reads it: in the CLI the files of a directory on
 * disk, in the console those of a folder dropped in the browser. No node-only import here: the
 * caller hands over the listing and the ways to read a file's text and digest.
 */

/** One file of the directory: its path relative to it, with `/` between segments. */
export interface BuildFile {
  path: string;
  size: number;
}

export type DigestAlgorithm = 'SHA-1' | 'SHA-512';

export interface BuildReader {
  /** A metadata file's text (latest.yml, RELEASES, appcast.xml, a .sig). */
  text(path: string): Promise<string>;
  /** A file's digest, as WebCrypto's `digest` answers it. */
  digest(path: string, algorithm: DigestAlgorithm): Promise<Uint8Array>;
}

/** The update-signing keys of the application the plan is for (null: none set). */
export interface SigningKeys {
  updateSigningKey: string | null;
  sparklePublicKey: string | null;
  /** Keys the application replaced: a bridge release is signed with one of them (docs/signing-key-changes.md). */
  retiredSigningKeys?: readonly { kind: 'minisign' | 'sparkle'; key: string }[];
}

/** The keys a signature of `kind` may verify under: the current one first, then the retired ones, newest retirement first. */
export function keysToTry(keys: SigningKeys, kind: 'minisign' | 'sparkle'): string[] {
  const current = kind === 'minisign' ? keys.updateSigningKey : keys.sparklePublicKey;
  const retired = (keys.retiredSigningKeys ?? []).filter((key) => key.kind === kind).map((key) => key.key).reverse();
  return current === null ? [] : [current, ...retired];
}

/** The problem of the signature under the current key, or null when it verifies under that key or a retired one. */
export async function firstVerifying(candidates: readonly string[], check: (publicKey: string) => Promise<string | null>): Promise<string | null> {
  let first: string | null = null;
  for (const key of candidates) {
    const problem = await check(key);
    if (problem === null) return null;
    first ??= problem;
  }
  return first;
}

/** A signature to check before anything is sent: its text, and the file it signs. */
export interface SignatureCheck {
  kind: 'minisign' | 'sparkle';
  /** The signature as it will be uploaded. */
  text: string;
  /** The path of the file it signs. */
  signedPath: string;
  /** The key it must verify under. */
  publicKey: string;
}

/** Why a signature does not verify, or null when it does. The browser has none: the service checks on upload. */
export type SignatureVerifier = (check: SignatureCheck) => Promise<string | null>;

export const RECOGNISED_TOOLS = {
  'electron-builder': 'electron-builder (NSIS, MSI, DMG, mac ZIP, AppImage, deb, rpm, snap, blockmaps; latest*.yml read and checked)',
  tauri: 'Tauri v1/v2 (bundle/{msi,nsis,dmg,macos,appimage,deb,rpm} with their .sig)',
  velopack: 'Velopack (Releases/ with releases.{channel}.json: full and delta nupkgs, Setup, Portable)',
  squirrel: 'Squirrel.Windows / electron-forge maker-squirrel (RELEASES, full and delta nupkgs, Setup.exe, .msi)',
  sparkle: 'Sparkle (appcast.xml from generate_appcast: archives, deltas, their sparkle:edSignature)',
} as const;

export type BuildTool = keyof typeof RECOGNISED_TOOLS;
/** What made a planned file: a recognised tool, or electron-forge's make results handed to its publisher. */
export type MadeBy = BuildTool | 'electron-forge';

/** One file of the release as it will be uploaded. */
export interface PlannedFile {
  /** The file on disk (relative path); null when the content is written from the tool's metadata (a Sparkle signature). */
  path: string | null;
  /** The content of a file written from metadata. */
  content?: string;
  fileName: string;
  size: number;
  platform: Platform;
  arch: Arch;
  fileType: FileType;
  /** What it is for, in words: "Windows installer", "Tauri signature of App_1.0.0_x64-setup.exe". */
  purpose: string;
  tool: MadeBy;
  /** The file name of the file this one signs or describes: it is sent after that one. */
  attachedTo?: string;
}

/** A file the plan leaves out on purpose, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

/** Something that keeps the release from being published, naming the file and the fix. */
export interface PlanProblem {
  path: string;
  message: string;
}

export interface PublishPlan {
  tools: MadeBy[];
  version: string;
  /** Version fields the tool wrote (Sparkle's bundle version, minimum system version). */
  versionFields: { bundleVersion?: string; minimumSystemVersion?: string; releaseNotes?: string };
  files: PlannedFile[];
  skipped: SkippedFile[];
  problems: PlanProblem[];
}

/** What one tool's recogniser found: the files it plans, those it read or left aside, the versions it saw. */
export interface ToolFindings {
  tool: BuildTool;
  files: PlannedFile[];
  /** Paths the tool wrote that are read (metadata) or left aside (unpacked app folders). */
  skipped: SkippedFile[];
  /** Every version the tool's files name, with one path naming it. */
  versions: Map<string, string>;
  problems: PlanProblem[];
  versionFields?: PublishPlan['versionFields'];
}

/** What a recogniser reads: the files not yet claimed by another tool, and the ways to read them. */
export interface BuildDirectory {
  files: readonly BuildFile[];
  reader: BuildReader;
  keys: SigningKeys;
  verify?: SignatureVerifier;
  /** The version asked for (--version), if any. */
  version?: string;
}

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
export const dirName = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
export const segments = (path: string): string[] => path.split('/');

/** Base64 of bytes, without Buffer (the browser has none). */
export function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

export function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function newFindings(tool: BuildTool): ToolFindings {
  return { tool, files: [], skipped: [], versions: new Map(), problems: [] };
}

export function sawVersion(findings: ToolFindings, version: string, path: string): void {
  if (!findings.versions.has(version)) findings.versions.set(version, path);
}
