import { z } from 'zod';
import { LICENCE_REVISION_MAX } from '../policy';
import { applicationIdField } from './fields';
import { pageFields } from './query-fields';

/** An application a customer names in the path: its licence, its logo. */
export const customerApplicationParams = z.object({ applicationId: applicationIdField });
export const licenceParams = customerApplicationParams;

/** The revision the customer read: accepting another than the current one is refused (409). */
export const acceptLicenceSchema = z
  .object({
    revision: z
      .number({ invalid_type_error: 'must be a whole number from 1' })
      .int('must be a whole number from 1')
      .min(1, 'must be a whole number from 1')
      .max(LICENCE_REVISION_MAX, `must be at most ${LICENCE_REVISION_MAX}`),
  })
  .strict();

/** The customer's applications, a page at a time. */
export const customerApplicationsQuery = z.object({ ...pageFields }).strict();

export type AcceptLicenceRequest = z.output<typeof acceptLicenceSchema>;
