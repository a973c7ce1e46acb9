/** The upload fields besides the file's name and size, as both uploads send them (docs/uploads.md, Upload fields). */
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
