import type { UploadSession, Version } from '../store/models';
import type { UploadRelease } from '../store/store';
import type { ReleaseStatus } from './lifecycle';

/** The channel and status an upload names for its version, where it names them. */
export interface NamedRelease {
  channel?: string;
  status?: ReleaseStatus;
}

/**
 * Why an upload naming `named` cannot add a file to a version that already exists in `existing`'s
 * channel and status, or null when it can. An upload never changes an existing version's channel or
 * status (that is a change of the version, with its own rules): one that names others is refused as
 * a whole, so a refused upload changes nothing. Naming none of them adds to any version, as uploads
 * did before versions had them.
 */
export function uploadReleaseMismatch(existing: { channel: string; status: ReleaseStatus }, named: NamedRelease): string | null {
  const differences: string[] = [];
  if (named.channel !== undefined && named.channel !== existing.channel) differences.push(`channel ${existing.channel}, not ${named.channel}`);
  if (named.status !== undefined && named.status !== existing.status) differences.push(`status ${existing.status}, not ${named.status}`);
  return differences.length === 0
    ? null
    : `is in ${differences.join(', and in ')}: an upload never changes the channel or status of a version that exists`;
}

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
