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
