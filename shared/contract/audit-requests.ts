import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../policy';
import { queryInteger, queryParameter, queryString } from './query-fields';
import { applicationIdField } from './fields';

/** `<resource>.<verb>`, in lower camel case: `application.update`, `adminKey.revoke`. */
export const AUDIT_ACTION_PATTERN = /^[a-z][a-zA-Z]{0,31}\.[a-z][a-zA-Z]{0,31}$/;


/** A real calendar date, YYYY-MM-DD. */
const dateField = queryParameter(z.string().date('must be a calendar date YYYY-MM-DD'));

export const auditQuery = z
  .object({
    action: queryString().regex(AUDIT_ACTION_PATTERN, 'must be an action such as application.update').optional(),
    applicationId: queryParameter(applicationIdField).optional(),
    actor: queryString().max(100, 'must be at most 100 characters').openapi({ description: "The admin key's id, or root" }).optional(),
    target: queryString().max(300, 'must be at most 300 characters').openapi({ description: 'What was acted on, exactly as listed (acme, acme/key_1)' }).optional(),
    from: dateField.openapi({ description: 'The first UTC day listed; not after `to`' }).optional(),
    to: dateField.openapi({ description: 'The last UTC day listed' }).optional(),
    limit: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    cursor: queryString().max(512).optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must not be after to', path: ['from'] });

export type AuditListQuery = z.output<typeof auditQuery>;
