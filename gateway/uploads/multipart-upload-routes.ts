import { inBody, inParams, inResult, uploadNamedBy } from '../http/access';
import { Reply } from '../http/reply';
import { route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { MultipartUploadService } from './multipart-upload-service';
import type { UploadService } from './upload-service';
import {
  multipartUploadResponse,
  partUrlsResponse,
  presentMultipartUpload,
  presentPartUrls,
  presentUploadSession,
  uploadSessionResponse,
} from '../../shared/contract/uploads';
import { multipartUploadSchema, partUrlsSchema, uploadParams } from '../../shared/contract/uploads-requests';

export const MULTIPART_UPLOADS = '/v1/management/uploads/multipart';
const UPLOAD = '/v1/management/uploads/:uploadId';

/** Resumable multipart uploads of files up to 5 TiB: open, pre-sign parts, complete, abort (the status is read with GET /v1/management/uploads/{uploadId}). */
export const multipartUploadRoutes: RouteModule<{ multipartUploads: MultipartUploadService; uploads: UploadService }> = (deps, { multipartUploads: multipart, uploads }) => {

  return [
    route({
      method: 'post', path: MULTIPART_UPLOADS, operationId: 'createMultipartUpload', guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 1: reserve the file and learn the part size and count',
      application: inBody('applicationId'), audit: { action: 'upload.start', target: inResult('uploadId') },
      body: multipartUploadSchema({ tiers: deps.config.tiers, channels: deps.config.channels }),
      status: 201, failures: [404, 409], response: multipartUploadResponse,
      handle: async ({ body }) => presentMultipartUpload(await multipart.open(body)),
    }),
    route({
      method: 'post', path: `${UPLOAD}/parts`, operationId: 'createMultipartPartUrls', guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 2: pre-signed PUT URLs for up to 100 parts',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.parts', target: inParams('uploadId') },
      params: uploadParams, body: partUrlsSchema,
      status: 200, failures: [409, 410], response: partUrlsResponse,
      handle: async ({ params, body }) => {
        const { expiresAt, parts } = await multipart.presignParts(params.uploadId, body.partNumbers);
        return presentPartUrls(params.uploadId, expiresAt, parts);
      },
    }),
    route({
      method: 'post', path: `${UPLOAD}/complete`, operationId: 'completeMultipartUpload', guard: 'admin', scope: 'publish', summary: 'Multipart upload, step 3: assemble the parts and verify the file',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.complete', target: inParams('uploadId') },
      params: uploadParams,
      // 202 while the file is being assembled and verified; 200 once the upload has completed or failed.
      status: [202, 200], failures: [409, 410], response: uploadSessionResponse,
      handle: async ({ params }) => {
        await multipart.complete(params.uploadId);
        const { session, file, version, keys } = await uploads.getUpload(params.uploadId);
        return Reply.withStatus(session.status === 'verifying' ? 202 : 200, presentUploadSession(session, file, version, null, keys));
      },
    }),
    route({
      method: 'delete', path: UPLOAD, operationId: 'abortUpload', guard: 'admin', scope: 'publish', summary: 'Abort an upload not yet completed: discard its bytes and free its file name',
      application: uploadNamedBy(inParams('uploadId')), audit: { action: 'upload.abort', target: inParams('uploadId') },
      params: uploadParams,
      status: 200, failures: [409, 410], response: uploadSessionResponse,
      handle: async ({ params }) => presentUploadSession(await multipart.abort(params.uploadId), null, null),
    }),
  ];
};
