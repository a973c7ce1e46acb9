import { z } from 'zod';
import { queryBoolean, queryString } from './query-fields';
import { applicationIdField, atLeastOneField, customerIdField, descriptionField, generatedIdField, NAME_MAX_LENGTH, nameField, newApplicationIdField, paragraphs, sparklePublicKeyField, tagField, updateSigningKeyField, versionField } from './fields';
import { pageFields } from './query-fields';
import { LICENCE_REVISION_MAX, LICENCE_TEXT_MAX_LENGTH, SUPPORT_URL_MAX_LENGTH } from '../policy';
import { DEFAULT_UPLOAD_STATUS } from '../releases/lifecycle';
import { fieldsGiven } from './openapi-extension';

/** https, an ASCII host name (its last label starting with a letter), no port or credentials, then the characters a URL spells unescaped. */
const SUPPORT_URL_PATTERN = /^https:\/\/(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*(?:[/?#][A-Za-z0-9\-._~!$&'()*+,;=:@/?#%]*)?$/;

function isSupportUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== '';
  } catch {
    return false;
  }
}

const tags = z.array(tagField).max(50, 'at most 50 tags').openapi({ description: 'Labels the listing filters by (GET ...?tag=)' });
/** Refers to customers that exist (unknown ones are refused by the service). */
const customerIds = z.array(customerIdField).max(10_000).openapi({ description: 'The customers granted the application; each must exist (an unknown one is 400)' });
const description = descriptionField.nullable();
const updateSigningKey = updateSigningKeyField.nullable();
const sparklePublicKey = sparklePublicKeyField.nullable();
/** A licence customers accept before downloading (Markdown); null removes it. */
const licenceText = paragraphs(LICENCE_TEXT_MAX_LENGTH)
  .refine((text) => text.length > 0, 'must not be empty: null removes the licence')
  .openapi({ minLength: 1 })
  .nullable()
  .openapi({ description: 'A licence (Markdown) customers must accept before downloading anything of the application; null removes the licence and its gate' });
/** Counts up from 1; a higher revision asks every customer again. */
const licenceRevision = z
  .number({ invalid_type_error: 'must be a whole number from 1' })
  .int('must be a whole number from 1')
  .min(1, 'must be a whole number from 1')
  .max(LICENCE_REVISION_MAX, `must be at most ${LICENCE_REVISION_MAX}`)
  .openapi({
    description: 'The revision of licenceText, given with a licence only (not with licenceText null; on a PATCH, alone only when the application has a licence), '
      + 'never below the current revision; a new licenceText without one moves to the next revision',
  });
/** The portal's name for people: one line, as names are. */
const displayName = nameField.nullable().openapi({ description: 'A name for people: customers see it in place of name; null clears it' });
const ACCENT_COLOUR_PATTERN = /^#[0-9a-fA-F]{6}$/;
/** A colour as CSS writes it, `#rrggbb`; kept as given. */
const accentColour = z.string({ invalid_type_error: 'must be a colour #rrggbb' }).regex(ACCENT_COLOUR_PATTERN, 'must be a colour #rrggbb').nullable()
  .openapi({ description: "The portal's colour for the application, #rrggbb, kept as written; null clears it" });
/** Where customers get help: an https URL a portal can link to (no credentials, at most SUPPORT_URL_MAX_LENGTH). */
const supportUrl = z.string({ invalid_type_error: 'must be an https URL' })
  .max(SUPPORT_URL_MAX_LENGTH, `must be at most ${SUPPORT_URL_MAX_LENGTH} characters`)
  .regex(SUPPORT_URL_PATTERN, 'must be an https URL')
  .refine(isSupportUrl, 'must be an https URL without credentials')
  .nullable()
  .openapi({ description: 'Where customers get help: an https URL with an ASCII host name, no port or credentials; null clears it' });
/** The status of a version an upload creates without naming one. */
const defaultVersionStatus = z.enum(['draft', 'published'], { errorMap: () => ({ message: 'must be draft or published' }) }).openapi({
  description: 'The status of a version an upload creates without naming one; with draft, a version is offered once its PATCH publishes it',
});

export const createApplicationSchema = z
  .object({
    applicationId: newApplicationIdField,
    name: nameField,
    description: description.optional(),
    tags: tags.optional(),
    customerIds: customerIds.optional(),
    updateSigningKey: updateSigningKey.optional(),
    sparklePublicKey: sparklePublicKey.optional(),
    defaultVersionStatus: defaultVersionStatus.optional().openapi({ default: DEFAULT_UPLOAD_STATUS }),
    licenceText: licenceText.optional(),
    licenceRevision: licenceRevision.optional(),
    displayName: displayName.optional(),
    accentColour: accentColour.optional(),
    supportUrl: supportUrl.optional(),
  })
  .strict()
  .superRefine((request, context) => {
    if (request.licenceRevision !== undefined && !request.licenceText) {
      context.addIssue({ code: z.ZodIssueCode.custom, path: ['licenceRevision'], message: 'is the revision of licenceText: give it with one' });
    }
  })
  // The refinement above, as the API description states it: a revision comes with a licence's text.
  .openapi({
    dependentRequired: { licenceRevision: ['licenceText'] },
    if: fieldsGiven('licenceRevision'),
    then: { properties: { licenceText: { type: 'string' } } },
  } as never);

export const updateApplicationSchema = atLeastOneField(
  z.object({
    name: nameField, description, tags, customerIds, updateSigningKey, sparklePublicKey, defaultVersionStatus, licenceText, licenceRevision, displayName, accentColour, supportUrl,
  }).partial().strict(),
  'give at least one of name, description, tags, customerIds, updateSigningKey, sparklePublicKey, defaultVersionStatus, licenceText, licenceRevision, displayName, accentColour, supportUrl',
);

export const listApplicationsQuery = z
  .object({
    ...pageFields,
    tag: queryString().optional(),
    customerId: queryString().optional(),
    /** Part of the name or the id, ignoring letter case. */
    search: queryString().max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`).optional()
      .openapi({ description: 'The applications whose name or id holds this text, ASCII letter case ignored, read literally (no wildcards)' }),
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
