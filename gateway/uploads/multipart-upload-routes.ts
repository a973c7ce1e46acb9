import { operationRoute } from '../http/operation-route';
import { inBody,inParams,inResult,uploadNamedBy } from '../http/access';
import { Reply } from '../http/reply';
import type { RouteModule } from '../gateway-deps';
import type { MultipartUploadService } from './multipart-upload-service';
import type { UploadService } from './upload-service';
import {
presentMultipartUpload,
presentPartUrls,
presentUploadSession
} from '../../shared/contract/uploads';

export const MULTIPART_UPLOADS = '/v1/management/uploads/multipart';

/** Resumable multipart uploads of files up to 5 TiB: open, pre-sign parts, complete, abort (the status is read with GET /v1/management/uploads/{uploadId}). */
export const multipartUploadRoutes: RouteModule<{ multipartUploads: MultipartUploadService; uploads: UploadService }> = (deps, { multipartUploads: multipart, uploads }) => {

  return [
    operationRoute(deps.config, 'createMultipartUpload', {
      guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 1: reserve the file and learn the part size and count',
      application: inBody('applicationId'), audit: { action: 'upload.start', target: inResult('uploadId') },
      status: 201, failures: [404, 409],
      handle: async ({ body }) => presentMultipartUpload(await multipart.open(body)),
    }),
    operationRoute(deps.config, 'createMultipartPartUrls', {
      guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 2: pre-signed PUT URLs for up to 100 parts',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.parts', target: inParams('uploadId') },
      status: 200, failures: [409, 410],
      handle: async ({ params, body }) => {
        const { expiresAt, parts } = await multipart.presignParts(params.uploadId, body.partNumbers);
        return presentPartUrls(params.uploadId, expiresAt, parts);
      },
    }),
    operationRoute(deps.config, 'completeMultipartUpload', {
      guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 3: assemble the parts and verify the file',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.complete', target: inParams('uploadId') },
      // 202 while the file is being assembled and verified; 200 once the upload has completed or failed.
      status: [202, 200], failures: [409, 410],
      handle: async ({ params }) => {
        await multipart.complete(params.uploadId);
        const { session, file, version, keys } = await uploads.getUpload(params.uploadId);
        return Reply.withStatus(session.status === 'verifying' ? 202 : 200, presentUploadSession(session, file, version, null, keys));
      },
    }),
    operationRoute(deps.config, 'abortUpload', {
      guard: 'admin', scope: 'publish', summary: 'Abort an upload not yet completed: discard its bytes and free its file name',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.abort', target: inParams('uploadId') },
      status: 200, failures: [409, 410],
      handle: async ({ params }) => presentUploadSession(await multipart.abort(params.uploadId), null, null),
    }),
  ];
};
