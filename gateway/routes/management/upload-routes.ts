import { payloadTooLarge, unsupportedMediaType, validationError } from '../../../shared/errors';
import { clientOrigin } from '../../http/client-origin';
import { declaredLength } from '../../http/declared-length';
import { respond } from '../../http/respond';
import { validate } from '../../http/validate';
import { presentFile, presentUploadSession } from '../../presenters/present';
import { z } from 'zod';
import { fileNameField } from '../../schemas/common';
import {
  largeUploadCompleteSchema,
  largeUploadUrlSchema,
  SMALL_UPLOAD_MAX_BYTES,
  smallUploadFields,
  uploadIdParam,
} from '../../schemas/upload-schemas';
import { ApplicationService } from '../../services/application-service';
import { UploadService } from '../../services/upload-service';
import { receiveMultipart } from '../../uploads/receive-multipart';
import type { RouteModule } from '../api-routes';

const fileNameOfForm = z.object({ file: fileNameField });

const TOO_LARGE = `the small upload takes files up to ${SMALL_UPLOAD_MAX_BYTES} bytes (10 MB); use POST /v1/management/upload/large-url for larger files`;

/** Uploads: small multipart (spec 4.3), the large three-step flow (4.4-4.6) and upload status. */
export const uploadRoutes: RouteModule = (router, deps, { admin }) => {
  const uploads = new UploadService(deps.store, deps.storage, deps.jobs, deps.events, new ApplicationService(deps.store, deps.catalog), deps.config.uploadUrlTtlSeconds, deps.logger);
  const formFields = smallUploadFields(deps.config.tiers);
  const fieldsBeforeFile = formFields.partial();

  router.post('/management/upload', admin, async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw unsupportedMediaType('send the file as multipart/form-data with a "file" field');
    if ((declaredLength(ctx) ?? 0) > SMALL_UPLOAD_MAX_BYTES + 1024 * 1024) {
      // Refuse before reading: the body cannot hold a file within the limit.
      ctx.set('Connection', 'close');
      throw payloadTooLarge(TOO_LARGE);
    }
    const form = await receiveMultipart(ctx.req, deps.storage, {
      maxFileBytes: SMALL_UPLOAD_MAX_BYTES,
      tooLargeMessage: TOO_LARGE,
      admitFile: async (fields, fileName) => {
        const known = validate(fieldsBeforeFile, fields);
        validate(fileNameOfForm, { file: fileName });
        await uploads.admitSmallUpload(known.applicationId);
      },
    }).catch((error) => {
      if ((error as { closeConnection?: boolean }).closeConnection) ctx.set('Connection', 'close');
      throw error;
    });
    const staged = form.file;
    try {
      const fields = validate(formFields, form.fields);
      if (!staged) throw validationError([{ field: 'file', message: 'is required: send the binary in the "file" form field' }]);
      validate(fileNameOfForm, { file: staged.fileName });
      const { file, version } = await uploads.publishSmallUpload(fields, staged, clientOrigin(ctx, null));
      respond(ctx, presentFile(file, version), 201);
    } catch (error) {
      if (staged) await deps.storage.delete(staged.stagingKey);
      throw error;
    }
  });

  router.post('/management/upload/large-url', admin, async (ctx) => {
    const body = validate(largeUploadUrlSchema(deps.config.tiers), ctx.request.body);
    const { session, uploadUrl } = await uploads.issueLargeUpload(body);
    respond(ctx, {
      uploadUrl,
      uploadId: session.uploadId,
      expiresAt: session.expiresAt.toISOString(),
      fileId: session.fileId,
      method: 'PUT',
    }, 201);
  });

  router.post('/management/upload/large-complete', admin, async (ctx) => {
    const body = validate(largeUploadCompleteSchema, ctx.request.body);
    const session = await uploads.completeLargeUpload(body);
    const { session: current, file, version } = await uploads.getUpload(session.uploadId);
    respond(ctx, presentUploadSession(current, file, version), current.status === 'verifying' ? 202 : 200);
  });

  router.get('/management/uploads/:uploadId', admin, async (ctx) => {
    const { session, file, version } = await uploads.getUpload(validate(uploadIdParam, ctx.params.uploadId));
    respond(ctx, presentUploadSession(session, file, version));
  });
};
