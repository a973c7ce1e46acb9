import { uploadReleaseMismatch } from '../releases/upload-release';
import type { UploadSession, Version } from '../store/models';
import type { UploadRelease } from '../store/store';

/*
 * An upload's file is published by Store.publishFile, with the version fields the upload carried:
 * the version is created or changed only there, by the upload whose file it makes available. An
 * upload that is refused or fails never touches the version, of uploads racing for one MAIN slot only
 * the winner's fields land, and a verification that resumes after its upload was failed (its worker
 * stalled) writes nothing.
 */

/** What a large upload asks of its version: null in the session means the request left it out. */
export function releaseOfSession(session: UploadSession): UploadRelease {
  return {
    releaseNotes: session.releaseNotes ?? undefined,
    requiredTier: session.requiredTier ?? undefined,
    channel: session.channel ?? undefined,
    status: session.versionStatus ?? undefined,
  };
}

/** Why an upload cannot add its file to `version`, which exists in another channel or status than the upload names; null when it can. */
export function versionMismatch(version: Version, release: UploadRelease): string | null {
  const mismatch = uploadReleaseMismatch(version, release);
  return mismatch === null ? null : `version ${version.version} ${mismatch}`;
}
