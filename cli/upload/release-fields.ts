/** The upload fields besides the file's name and size, as both uploads send them (Upload fields in the README's API section). */
export interface ReleaseFields {
  contentType?: string;
  fileType?: string;
  platform?: string;
  arch?: string;
  channel?: string;
  status?: string;
  releaseNotes?: string;
  requiredTier?: string;
  checksum?: string;
}
