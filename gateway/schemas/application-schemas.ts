import { z } from 'zod';
import { queryBoolean, queryString } from '../http/validate';
import { applicationIdField, atLeastOneField, customerIdField, descriptionField, generatedIdField, NAME_MAX_LENGTH, nameField, newApplicationIdField, tagField, updateSigningKeyField, versionField } from './common';
import { pageFields } from './pagination';

const tags = z.array(tagField).max(50, 'at most 50 tags');
/** Refers to customers that exist (unknown ones are refused by the service). */
const customerIds = z.array(customerIdField).max(10_000);
const description = descriptionField.nullable();
const updateSigningKey = updateSigningKeyField.nullable();
/** The status of a version an upload creates without naming one. */
const defaultVersionStatus = z.enum(['draft', 'published'], { errorMap: () => ({ message: 'must be draft or published' }) });

export const createApplicationSchema = z
  .object({
    applicationId: newApplicationIdField,
    name: nameField,
    description: description.optional(),
    tags: tags.optional(),
    customerIds: customerIds.optional(),
    updateSigningKey: updateSigningKey.optional(),
    defaultVersionStatus: defaultVersionStatus.optional(),
  })
  .strict();

export const updateApplicationSchema = atLeastOneField(
  z.object({ name: nameField, description, tags, customerIds, updateSigningKey, defaultVersionStatus }).partial().strict(),
  'give at least one of name, description, tags, customerIds, updateSigningKey, defaultVersionStatus',
);

export const listApplicationsQuery = z
  .object({
    ...pageFields,
    tag: queryString().optional(),
    customerId: queryString().optional(),
    /** Part of the name or the id, ignoring letter case. */
    search: queryString().max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`).optional(),
    includeDeleted: queryBoolean().optional(),
  })
  .strict();

export const includeDeletedQuery = z.object({ includeDeleted: queryBoolean().optional() }).strict();

export const applicationParams = z.object({ applicationId: applicationIdField });
export const versionParams = z.object({ applicationId: applicationIdField, version: versionField });
export const versionFileParams = versionParams.extend({ fileId: generatedIdField });

export type CreateApplicationRequest = z.output<typeof createApplicationSchema>;
export type UpdateApplicationRequest = z.output<typeof updateApplicationSchema>;
export type ListApplicationsQuery = z.output<typeof listApplicationsQuery>;
