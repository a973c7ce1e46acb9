import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../shared/policy';
import { AUDIT_ACTION_PATTERN } from '../http/route';
import { queryInteger, queryParameter, queryString } from '../http/validate';
import { applicationIdField } from './common';

export const auditQuery = z
  .object({
    action: queryString().regex(AUDIT_ACTION_PATTERN, 'must be an action such as application.update').optional(),
    applicationId: queryParameter(applicationIdField).optional(),
    limit: queryInteger(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    cursor: queryString().max(512).optional(),
  })
  .strict();

export type AuditListQuery = z.output<typeof auditQuery>;
