import { z } from 'zod';
import { CUSTOMER_ID_PATTERN } from '../../shared/api-keys';
import { queryBoolean, queryInteger, queryString } from '../http/validate';
import { applicationIdField, nameField, notEmpty } from './common';

const tags = z.array(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters')).max(50, 'at most 50 tags');
const customerIds = z.array(z.string().regex(CUSTOMER_ID_PATTERN, 'is not a valid customer id')).max(10_000);
const description = z.string().max(2_000, 'must be at most 2000 characters').nullable();

export const createApplicationSchema = z
  .object({
    applicationId: applicationIdField,
    name: nameField,
    description: description.optional(),
    tags: tags.optional(),
    customerIds: customerIds.optional(),
  })
  .strict();

export const updateApplicationSchema = z
  .object({ name: nameField, description, tags, customerIds })
  .partial()
  .strict()
  .refine(notEmpty, { message: 'give at least one of name, description, tags, customerIds' });

export const listApplicationsQuery = z
  .object({
    page: queryInteger(1, 1_000_000, 1),
    pageSize: queryInteger(1, 100, 20),
    tag: queryString().optional(),
    customerId: queryString().optional(),
    includeDeleted: queryBoolean().optional(),
  })
  .strict();

export const includeDeletedQuery = z.object({ includeDeleted: queryBoolean().optional() }).strict();
