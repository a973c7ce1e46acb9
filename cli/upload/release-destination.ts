/** What an upload's answer says of the file's version: enough to tell the person where the release went. */
export interface UploadedVersion {
  applicationId: string;
  version: string;
  channel: string;
  versionStatus: 'draft' | 'published' | 'yanked';
}

/**
 * Where the uploaded file went, in words: published (customers are offered it now), a draft (no
 * customer sees it until published, and how to publish it) or a yanked version (withdrawn).
 */
export function releaseDestination(uploaded: UploadedVersion): string {
  const { applicationId, version, channel } = uploaded;
  switch (uploaded.versionStatus) {
    case 'published':
      return `published to ${channel}: customers see it now`;
    case 'draft':
      return `saved as draft in ${channel}: publish with bds versions update ${applicationId} ${version} --status published`;
    default:
      return `added to yanked version ${version} in ${channel}: customers do not see it until it is published again`;
  }
}
