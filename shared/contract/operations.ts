import type { AnyZodObject, ZodTypeAny } from 'zod';
import { LOGO_CONTENT_TYPES } from '../policy';
import { accessTokenListResponse, accessTokenResponse, accessTokenWithUsageResponse, issuedAccessTokenResponse } from './access-tokens';
import { accessTokenParams, createAccessTokenSchema, updateAccessTokenSchema } from './access-tokens-requests';
import { adminKeyListResponse, issuedAdminKeyResponse, revokedAdminKeyResponse } from './admin-keys';
import { adminKeyParams, createAdminKeySchema } from './admin-keys-requests';
import { adoptionResponse, customerAdoptionListResponse } from './adoption';
import { applicationListResponse, applicationResponse, applicationWithVersionsResponse, customerApplicationListResponse, deletedApplicationResponse } from './applications';
import { applicationParams, createApplicationSchema, includeDeletedQuery, listApplicationsQuery, updateApplicationSchema, versionFileParams, versionParams } from './applications-requests';
import { attestationKeyListResponse, attestationKeyResponse, attestationListResponse, attestationResponse } from './attestations';
import { addAttestationKeySchema, attestationBody, attestationKeyParams, customerFileParams, fileAttestationParams } from './attestations-requests';
import { auditPageResponse } from './audit';
import { auditQuery } from './audit-requests';
import { callerResponse } from './caller';
import { apiKeyListResponse, customerListResponse, customerResponse, deletedCustomerResponse, issuedApiKeyResponse, provisionedCustomerResponse, revokedApiKeyResponse } from './customers';
import { apiKeyParams, createCustomerSchema, customerAccessParams, grantAccessSchema, issueApiKeySchema, listCustomersQuery, updateCustomerSchema } from './customers-requests';
import { createdCustomerShareLinkResponse, createdShareLinkResponse, customerShareLinkListResponse, downloadResponse, redirectResponse, revokedShareLinkResponse } from './downloads';
import { createShareSchema, customerShareLinkParams, downloadUrlQuery, releasesQuery, shareTokenParams } from './downloads-requests';
import { customerParams } from './fields';
import { latestArchParams, latestLinkQuery, latestPlatformParams } from './latest-links-requests';
import { licenceAcceptanceResponse, licenceResponse } from './licences';
import { acceptLicenceSchema, customerApplicationParams, customerApplicationsQuery, licenceParams } from './licences-requests';
import { multipartForm, rawBytesOf, type ResponseDeclaration, type StreamedBody } from './operation-kinds';
import { releasePurgeResponse } from './release-purges';
import { releaseListResponse } from './releases';
import { repositoriesResponse } from './repositories';
import { importRepositoryKeySchema, repositoryParams, rotateRepositoryKeySchema } from './repositories-requests';
import { releaseHealthResponse, rolloutPlanResponse } from './rollouts';
import { activityPageResponse, statisticsResponse } from './statistics';
import { activityQuery, adoptionQuery, customerAdoptionQuery, statisticsParams, statisticsQuery } from './statistics-requests';
import { tufRepositoryResponse } from './tuf';
import { tufRepositoryParams, uploadTufRootSchema } from './tuf-requests';
import { largeUploadResponse, multipartUploadResponse, partUrlsResponse, uploadSessionResponse } from './uploads';
import { largeUploadCompleteSchema, largeUploadUrlSchema, multipartUploadSchema, partUrlsSchema, smallUploadFields, UPLOAD_FILE_FIELD, uploadParams } from './uploads-requests';
import { vendorResponse } from './vendor';
import { deletedFileResponse, deletedVersionResponse, uploadedFileResponse, versionListResponse, versionResponse } from './versions';
import { listVersionsQuery, updateVersionSchema } from './versions-requests';
import { createdWebhookResponse, deletedWebhookResponse, deliveryListResponse, deliveryResponse, rotatedSecretResponse, webhookListResponse, webhookResponse } from './webhooks';
import { createWebhookSchema, deliveryParams, listDeliveriesQuery, listWebhooksQuery, noParametersSchema, updateWebhookSchema, webhookParams } from './webhooks-requests';
import { endpoints, type OperationId } from './endpoints';

/*
 * The operations table: for each operationId of the JSON API, what it takes (params, query, body) and
 * what it answers, as the schemas the gateway validates with and the API description is generated
 * from. Its method and path are in endpoints.ts, under the same key. The gateway's routes take them
 * from here (gateway/http/operation-route.ts); the typed client (client.ts) derives its methods from
 * the types of both.
 */

/** The configured vocabularies some request schemas are built from (the service's configuration). */
export interface ContractChoices {
  tiers: readonly string[];
  channels: readonly string[];
  /** The hosts webhook destinations may name (empty: any public host). */
  webhookHosts: readonly string[];
}

/** A schema, or one built from the configured choices. */
export type Chosen<S> = S | ((choices: ContractChoices) => S);

export interface OperationSchemas {
  params?: Chosen<AnyZodObject>;
  query?: Chosen<ZodTypeAny>;
  body?: Chosen<ZodTypeAny | StreamedBody>;
  response: ResponseDeclaration;
}

const BYTES = 'bytes' as const;

export const operationSchemas = {
  createAdminKey: { body: createAdminKeySchema, response: issuedAdminKeyResponse },
  listAdminKeys: { response: adminKeyListResponse },
  revokeAdminKey: { params: adminKeyParams, response: revokedAdminKeyResponse },
  listAuditEntries: { query: auditQuery, response: auditPageResponse },
  createApplication: { body: createApplicationSchema, response: applicationResponse },
  listApplications: { query: listApplicationsQuery, response: applicationListResponse },
  getApplication: { params: applicationParams, query: includeDeletedQuery, response: applicationWithVersionsResponse },
  updateApplication: { params: applicationParams, body: updateApplicationSchema, response: applicationResponse },
  deleteApplication: { params: applicationParams, response: deletedApplicationResponse },
  restoreApplication: { params: applicationParams, response: applicationResponse },
  setApplicationLogo: { params: applicationParams, body: rawBytesOf(LOGO_CONTENT_TYPES), response: applicationResponse },
  getAdminApplicationLogo: { params: applicationParams, response: BYTES },
  removeApplicationLogo: { params: applicationParams, response: applicationResponse },
  listVersions: { params: applicationParams, query: (c) => listVersionsQuery(c.channels), response: versionListResponse },
  updateVersion: { params: versionParams, body: (c) => updateVersionSchema(c.tiers, c.channels), response: versionResponse },
  getAdminFileDownloadUrl: { params: versionFileParams, response: downloadResponse },
  deleteDraftVersion: { params: versionParams, response: deletedVersionResponse },
  deleteVersionFile: { params: versionFileParams, response: deletedFileResponse },
  purgeApplicationReleases: { params: applicationParams, response: releasePurgeResponse },
  getVersionHealth: { params: versionParams, response: releaseHealthResponse },
  resumeVersionRollout: { params: versionParams, response: rolloutPlanResponse },
  stopVersionRollout: { params: versionParams, response: rolloutPlanResponse },
  addFileAttestation: { params: fileAttestationParams, body: attestationBody, response: attestationResponse },
  listFileAttestations: { params: fileAttestationParams, response: attestationListResponse },
  addAttestationKey: { params: attestationKeyParams, body: addAttestationKeySchema, response: attestationKeyResponse },
  listAttestationKeys: { params: attestationKeyParams, response: attestationKeyListResponse },
  listDownloadAttestations: { params: customerFileParams, response: attestationListResponse },
  createAccessToken: { params: customerParams, body: (c) => createAccessTokenSchema(c.channels), response: issuedAccessTokenResponse },
  listAccessTokens: { params: customerParams, response: accessTokenListResponse },
  getAccessToken: { params: accessTokenParams, response: accessTokenWithUsageResponse },
  updateAccessToken: { params: accessTokenParams, body: (c) => updateAccessTokenSchema(c.channels), response: accessTokenResponse },
  revokeAccessToken: { params: accessTokenParams, response: accessTokenResponse },
  createCustomer: { body: (c) => createCustomerSchema(c.tiers), response: provisionedCustomerResponse },
  listCustomers: { query: listCustomersQuery, response: customerListResponse },
  getCustomer: { params: customerParams, response: customerResponse },
  updateCustomer: { params: customerParams, body: (c) => updateCustomerSchema(c.tiers), response: customerResponse },
  deleteCustomer: { params: customerParams, response: deletedCustomerResponse },
  issueCustomerApiKey: { params: customerParams, body: issueApiKeySchema, response: issuedApiKeyResponse },
  listCustomerApiKeys: { params: customerParams, response: apiKeyListResponse },
  revokeCustomerApiKey: { params: apiKeyParams, response: revokedApiKeyResponse },
  grantCustomerApplicationAccess: { params: customerAccessParams, body: grantAccessSchema, response: applicationResponse },
  revokeCustomerApplicationAccess: { params: customerAccessParams, response: applicationResponse },
  listCustomerShareLinks: { params: customerParams, response: customerShareLinkListResponse },
  createCustomerShareLink: { params: customerParams, body: (c) => createShareSchema(c.channels), response: createdCustomerShareLinkResponse },
  revokeCustomerShareLink: { params: customerShareLinkParams, response: revokedShareLinkResponse },
  getDownloadUrl: { query: (c) => downloadUrlQuery(c.channels), response: downloadResponse },
  getLatestDownload: { params: latestPlatformParams, query: (c) => latestLinkQuery(c.channels), response: redirectResponse },
  getLatestDownloadForArch: { params: latestArchParams, query: (c) => latestLinkQuery(c.channels), response: redirectResponse },
  listCustomerApplications: { query: customerApplicationsQuery, response: customerApplicationListResponse },
  getApplicationLogo: { params: customerApplicationParams, response: BYTES },
  getLicence: { params: licenceParams, response: licenceResponse },
  acceptLicence: { params: licenceParams, body: acceptLicenceSchema, response: licenceAcceptanceResponse },
  createShareLink: { body: (c) => createShareSchema(c.channels), response: createdShareLinkResponse },
  listReleases: { query: (c) => releasesQuery(c.channels), response: releaseListResponse },
  revokeShareLink: { params: shareTokenParams, response: revokedShareLinkResponse },
  getApplicationRepositories: { params: repositoryParams, response: repositoriesResponse },
  rotateRepositoryKey: { params: repositoryParams, body: rotateRepositoryKeySchema, response: repositoriesResponse },
  importRepositoryKey: { params: repositoryParams, body: importRepositoryKeySchema, response: repositoriesResponse },
  getApplicationStatistics: { params: statisticsParams, query: (c) => statisticsQuery(c.channels), response: statisticsResponse },
  getApplicationAdoption: { params: statisticsParams, query: (c) => adoptionQuery(c.channels), response: adoptionResponse },
  listCustomerAdoption: { params: statisticsParams, query: customerAdoptionQuery, response: customerAdoptionListResponse },
  listActivity: { query: activityQuery, response: activityPageResponse },
  getTufRepository: { params: tufRepositoryParams, response: tufRepositoryResponse },
  uploadTufRoot: { params: tufRepositoryParams, body: uploadTufRootSchema, response: tufRepositoryResponse },
  createMultipartUpload: { body: (c) => multipartUploadSchema(c), response: multipartUploadResponse },
  createMultipartPartUrls: { params: uploadParams, body: partUrlsSchema, response: partUrlsResponse },
  completeMultipartUpload: { params: uploadParams, response: uploadSessionResponse },
  abortUpload: { params: uploadParams, response: uploadSessionResponse },
  uploadSmallFile: { body: (c) => multipartForm(smallUploadFields(c), UPLOAD_FILE_FIELD), response: uploadedFileResponse },
  createLargeUpload: { body: (c) => largeUploadUrlSchema(c), response: largeUploadResponse },
  completeLargeUpload: { body: largeUploadCompleteSchema, response: uploadSessionResponse },
  getUpload: { params: uploadParams, response: uploadSessionResponse },
  createWebhook: { body: (c) => createWebhookSchema(c.webhookHosts), response: createdWebhookResponse },
  listWebhooks: { query: listWebhooksQuery, response: webhookListResponse },
  getWebhook: { params: webhookParams, response: webhookResponse },
  updateWebhook: { params: webhookParams, body: (c) => updateWebhookSchema(c.webhookHosts), response: webhookResponse },
  deleteWebhook: { params: webhookParams, response: deletedWebhookResponse },
  rotateWebhookSecret: { params: webhookParams, body: noParametersSchema, response: rotatedSecretResponse },
  listWebhookDeliveries: { params: webhookParams, query: listDeliveriesQuery, response: deliveryListResponse },
  redeliverWebhookDelivery: { params: deliveryParams, body: noParametersSchema, response: deliveryResponse },
  getCaller: { response: callerResponse },
  getVendor: { response: vendorResponse },
} satisfies Record<OperationId, OperationSchemas>;

export type OperationSchemaTable = typeof operationSchemas;

/** The schema itself, for one that is built from the configured choices. */
export type Resolved<S> = S extends (choices: ContractChoices) => infer R ? R : S;

export const resolveChosen = <S>(schema: Chosen<S>, choices: ContractChoices): S =>
  typeof schema === 'function' ? (schema as (choices: ContractChoices) => S)(choices) : schema;

// endpoints.ts says which operations take a query and a body; a disagreement with the schemas does not compile.
type Has<T, F extends string> = T extends Record<F, unknown> ? true : false;
type Disagreeing = {
  [K in OperationId]: Has<OperationSchemaTable[K], 'body'> extends Has<(typeof endpoints)[K], 'body'>
    ? Has<OperationSchemaTable[K], 'query'> extends Has<(typeof endpoints)[K], 'query'> ? never : K
    : K;
}[OperationId];
export const ENDPOINTS_AGREE: [Disagreeing] extends [never] ? true : Disagreeing = true;

/** One operation: its address and its schemas. */
export type Operation<K extends OperationId> = (typeof endpoints)[K] & OperationSchemaTable[K];

export const operation = <K extends OperationId>(id: K): Operation<K> => ({ ...endpoints[id], ...operationSchemas[id] }) as Operation<K>;
