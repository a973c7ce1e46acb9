import type { BodyOf } from '../../shared/contract/client';

/**
 * The upload fields besides the application, version, file name and size, as both uploads send them:
 * the multipart upload's body (shared/contract/uploads-requests.ts), so a field renamed or added
 * there is one here.
 */
export type ReleaseFields = Omit<BodyOf<'createMultipartUpload'>, 'applicationId' | 'version' | 'fileName' | 'fileSize'>;
