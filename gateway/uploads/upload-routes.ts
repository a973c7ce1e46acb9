import { operationRoute } from '../http/operation-route';
import { z } from 'zod';
import { payloadTooLarge,unsupportedMediaType,validationError } from '../../shared/errors';
import { MULTIPART_FORM_OVERHEAD_BYTES,SMALL_UPLOAD_MAX_BYTES } from '../../shared/policy';
import { inBody,inParams,inResult,uploadNamedBy } from '../http/access';
import { clientOrigin } from '../http/client-origin';
import { declaredLength } from '../http/declared-length';
import { Reply } from '../http/reply';
import type { RouteModule } from '../gateway-deps';
import type { UploadService } from './upload-service';
import type { MultipartUploadService } from './multipart-upload-service';
import { validate } from '../http/validate';
import { presentLargeUpload,presentUploadSession } from '../../shared/contract/uploads';
import { presentUploadedFile } from '../../shared/contract/versions';
import { fileNameField } from '../../shared/contract/fields';
import {
smallUploadFields
} from '../../shared/contract/uploads-requests';
import { FILE_FIELD,receiveMultipart } from './receive-multipart';

const fileNameOfForm = z.object({ file: fileNameField });

const TOO_LARGE = `the small upload takes files up to ${SMALL_UPLOAD_MAX_BYTES} bytes (${SMALL_UPLOAD_MAX_BYTES / 1024 ** 2} MB); use POST /v1/management/upload/large-url for larger files`;

/** Uploads: the small multipart form, the large three-step flow (upload URL, PUT, complete) and upload status. */
export const uploadRoutes: RouteModule<{ uploads: UploadService; multipartUploads: MultipartUploadService }> = (deps, { uploads, multipartUploads: multipart }) => {
  const fieldChoices = { tiers: deps.config.tiers, channels: deps.config.channels };
  const formFields = smallUploadFields(fieldChoices);
  const fieldsBeforeFile = formFields.partial();

  return [
    operationRoute(deps.config, 'uploadSmallFile', {
      guard: 'admin', scope: 'publish', summary: 'Upload a file of up to 10 MB as multipart/form-data, published at once',
      application: inBody('applicationId'), audit: { action: 'upload.small', target: inResult('fileId') },
      status: 201, failures: [404, 409],
      handle: async ({ body: admitFields }, ctx) => {
        if (!ctx.is('multipart/form-data')) throw unsupportedMediaType('send the file as multipart/form-data with a "file" field');
        if ((declaredLength(ctx) ?? 0) > SMALL_UPLOAD_MAX_BYTES + MULTIPART_FORM_OVERHEAD_BYTES) {
          // Refuse before reading: the body cannot hold a file within the limit.
          ctx.set('Connection', 'close');
          throw payloadTooLarge(TOO_LARGE);
        }
        const form = await receiveMultipart(ctx.req, deps.storage, deps.hashing, {
          maxFileBytes: SMALL_UPLOAD_MAX_BYTES,
          tooLargeMessage: TOO_LARGE,
          admitFile: async (fields, fileName) => {
            const known = validate(fieldsBeforeFile, fields);
            validate(fileNameOfForm, { file: fileName });
            await admitFields.partial(fields);
            await uploads.admitSmallUpload(known);
          },
        }).catch((error) => {
          if ((error as { closeConnection?: boolean }).closeConnection) ctx.set('Connection', 'close');
          throw error;
        });
        const staged = form.file;
        try {
          const fields = validate(formFields, form.fields);
          await admitFields.whole(form.fields);
          if (!staged) throw validationError([{ field: FILE_FIELD, message: `is required: send the binary in the "${FILE_FIELD}" form field` }]);
          validate(fileNameOfForm, { file: staged.fileName });
          const { file, version, keys } = await uploads.publishSmallUpload(fields, staged, clientOrigin(ctx, null));
          return presentUploadedFile(file, version, keys);
        } catch (error) {
          if (staged) await deps.storage.delete(staged.stagingKey);
          throw error;
        }
      },
    }),
    operationRoute(deps.config, 'createLargeUpload', {
      guard: 'admin', scope: 'publish', summary: 'Large upload, step 1: reserve the file and get a pre-signed PUT URL',
      application: inBody('applicationId'), audit: { action: 'upload.start', target: inResult('uploadId') },
      status: 201, failures: [404, 409],
      handle: async ({ body }) => {
        const { session, uploadUrl } = await uploads.issueLargeUpload(body);
        return presentLargeUpload(session, uploadUrl);
      },
    }),
    operationRoute(deps.config, 'completeLargeUpload', {
      guard: 'admin', scope: 'publish', summary: 'Large upload, step 3: queue the verification of the uploaded bytes',
      // The upload's stored application is the one acted on; the service refuses a body that names another.
      application: uploadNamedBy(inBody('uploadId')), audit: { action: 'upload.complete', target: inBody('uploadId') },
      // 202 while the bytes are being verified; 200 once the upload has completed or failed.
      status: [202, 200], failures: [404, 409, 410],
      handle: async ({ body }) => {
        const session = await uploads.completeLargeUpload(body);
        const { session: current, file, version, keys } = await uploads.getUpload(session.uploadId);
        return Reply.withStatus(current.status === 'verifying' ? 202 : 200, presentUploadSession(current, file, version, null, keys));
      },
    }),
    operationRoute(deps.config, 'getUpload', {
      guard: 'admin', scope: 'publish', summary: 'Read the status of an upload, and the parts a multipart upload holds',
      application: uploadNamedBy(inParams('uploadId')),
      status: 200,
      handle: async ({ params }) => {
        const { session, file, version, keys } = await uploads.getUpload(params.uploadId);
        return presentUploadSession(session, file, version, await multipart.storedParts(session), keys);
      },
    }),
  ];
};
