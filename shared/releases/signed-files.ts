import type { FileType } from './file-types';
import { isZipArchive } from './file-names';
import { macUpdateFeedProblems, macUpdateFiles } from './mac-updates';
import type { FileTarget } from './platforms';

/*
 * Which SIGNATURE file signs which file of a version, in one place for the feeds, the console and the
 * feed problems a version lists: the one its name names (`{file}.sig`, any last extension), else the
 * version's MAIN file of the signature's platform and arch (as `tauri signer sign` and the upload
 * check read a signature named otherwise).
 */

/** What the rules read of a file. */
export interface SignedFileCandidate extends FileTarget {
  fileId: string;
  fileName: string;
  fileType: FileType;
  status: string;
  signatureProblem?: string | null;
}

/** The name of the file a signature's name says it signs: its own without the last extension. */
export const signedFileName = (signatureName: string): string => signatureName.replace(/\.[^.]*$/, '');

const sameTarget = (a: FileTarget, b: FileTarget): boolean => a.platform === b.platform && a.arch === b.arch;

/**
 * The available SIGNATURE file that signs `file` among its version's files, or undefined: the one
 * named after it, else (for a MAIN file) one of its platform and arch whose name names no other file
 * of the version. `usable` leaves out signatures that do not verify (signatureProblem).
 */
export function signatureOf<F extends SignedFileCandidate>(file: F, files: readonly F[], usable = false): F | undefined {
  if (file.fileType === 'SIGNATURE') return undefined;
  const signatures = files.filter((s) => s.fileType === 'SIGNATURE' && s.status === 'available' && sameTarget(s, file) && !(usable && s.signatureProblem));
  const named = signatures.filter((s) => signedFileName(s.fileName) === file.fileName);
  if (named.length > 0) return named[named.length - 1];
  if (file.fileType !== 'MAIN') return undefined;
  const others = signatures.filter((s) => !files.some((f) => f.fileType !== 'SIGNATURE' && sameTarget(f, s) && f.fileName === signedFileName(s.fileName)));
  return others[others.length - 1];
}

/** The application's keys, which decide the feeds that need a signature. */
export interface FeedKeys {
  updateSigningKey: string | null;
  sparklePublicKey: string | null;
}

/**
 * Why update feeds leave the version out, one sentence each: a macOS build without a `.zip`
 * (electron-updater, Squirrel.Mac); with a Sparkle key, a macOS build with no archive (its MAIN file
 * or its `.zip`) signed (Sparkle); with an update-signing key, a MAIN build with no signature (Tauri).
 * `keys` null: the application's keys are not known, and only the first rule is applied.
 */
export function updateFeedProblems<F extends SignedFileCandidate>(allFiles: readonly F[], keys: FeedKeys | null): string[] {
  const files = allFiles.filter((file) => file.status !== 'failed');
  const problems = macUpdateFeedProblems(files);
  const mains = files.filter((file) => file.fileType === 'MAIN');
  if (keys?.sparklePublicKey) {
    for (const main of mains.filter((file) => file.platform === 'macos')) {
      const archives = [main, ...macUpdateFiles(files).filter((file) => file.fileType === 'UPDATE' && sameTarget(file, main) && isZipArchive(file.fileName))];
      if (archives.some((archive) => signatureOf(archive, files, true))) continue;
      problems.push(`no Sparkle signature for macos/${main.arch}: Sparkle offers this version only with an archive signed by the application's Sparkle key; `
        + `upload ${main.fileName}.sig (what sign_update -p prints) or the .zip's, with fileType SIGNATURE`);
    }
  }
  if (keys?.updateSigningKey) {
    for (const main of mains) {
      if (signatureOf(main, files, true)) continue;
      problems.push(`no update signature for ${main.platform}/${main.arch}: Tauri offers this version only with a signature of ${main.fileName} that verifies under the `
        + `update-signing key; upload ${main.fileName}.sig (what tauri signer sign writes) with fileType SIGNATURE`);
    }
  }
  return problems;
}
