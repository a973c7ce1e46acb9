import type { z } from 'zod';
import type { repositoriesResponse } from '../../shared/contract/repositories';
import type { tufRepositoryResponse } from '../../shared/contract/tuf';
import type {
  accessTokenListResponse,
  accessTokenResponse,
  accessTokenWithUsageResponse,
  issuedAccessTokenResponse,
} from '../../shared/contract/access-tokens';
import type { attestationKeyListResponse, attestationKeyResponse, attestationListResponse, attestationResponse } from '../../shared/contract/attestations';
import type { adminKeyListResponse, adminKeyResponse, issuedAdminKeyResponse, revokedAdminKeyResponse } from '../../shared/contract/admin-keys';
import type {
  applicationListResponse,
  applicationResponse,
  applicationWithVersionsResponse,
  deletedApplicationResponse,
} from '../../shared/contract/applications';
import type { auditPageResponse } from '../../shared/contract/audit';
import type { releasePurgeResponse } from '../../shared/contract/release-purges';
import type { releaseHealthResponse, rolloutPlanResponse } from '../../shared/contract/rollouts';
import type { paginationResponse } from '../../shared/contract/common';
import type {
  apiKeyListResponse,
  apiKeyResponse,
  customerListResponse,
  deletedCustomerResponse,
  customerResponse,
  issuedApiKeyResponse,
  provisionedCustomerResponse,
  revokedApiKeyResponse,
} from '../../shared/contract/customers';
import type { createdShareLinkResponse, downloadResponse, revokedShareLinkResponse } from '../../shared/contract/downloads';
import type { licenceAcceptanceResponse, licenceResponse } from '../../shared/contract/licences';
import type { releaseListResponse } from '../../shared/contract/releases';
import type { activityPageResponse, activityResponse, statisticsResponse } from '../../shared/contract/statistics';
import type { adoptionResponse, customerAdoptionListResponse } from '../../shared/contract/adoption';
import type { multipartUploadResponse, partUrlsResponse, uploadSessionResponse } from '../../shared/contract/uploads';
import type { deletedFileResponse, deletedVersionResponse, fileResponse, uploadedFileResponse, versionListResponse, versionResponse } from '../../shared/contract/versions';
import type {
  createdWebhookResponse,
  deletedWebhookResponse,
  deliveryListResponse,
  deliveryResponse,
  rotatedSecretResponse,
  webhookListResponse,
  webhookResponse,
} from '../../shared/contract/webhooks';

/*
 * What the service answers, as the CLI reads it: the types of the service's own response schemas
 * (shared/contract/), never restated here, so the two cannot drift. Type imports only: the CLI loads
 * none of the contract at run time.
 */

export type Pagination = z.infer<typeof paginationResponse>;

export type ApplicationRecord = z.infer<typeof applicationResponse>;
export type ApplicationWithVersions = z.infer<typeof applicationWithVersionsResponse>;
export type ApplicationList = z.infer<typeof applicationListResponse>;
export type DeletedApplication = z.infer<typeof deletedApplicationResponse>;
export type ReleasePurge = z.infer<typeof releasePurgeResponse>;

/** A file as a version lists it. */
export type VersionFile = z.infer<typeof fileResponse>;
export type VersionRecord = z.infer<typeof versionResponse>;
export type VersionList = z.infer<typeof versionListResponse>;
export type DeletedVersion = z.infer<typeof deletedVersionResponse>;
export type DeletedFile = z.infer<typeof deletedFileResponse>;

/** What the small upload answers: the published file with its version's notes, tier, channel and status. */
export type UploadedFile = z.infer<typeof uploadedFileResponse>;
/** An upload session as GET /v1/management/uploads/{uploadId} answers it. */
export type UploadRecord = z.infer<typeof uploadSessionResponse>;
export type UploadStatus = UploadRecord['status'];
/** What POST /v1/management/uploads/multipart answers. */
export type OpenedMultipartUpload = z.infer<typeof multipartUploadResponse>;
export type PartUrlList = z.infer<typeof partUrlsResponse>;

export type CustomerRecord = z.infer<typeof customerResponse>;
export type DeletedCustomer = z.infer<typeof deletedCustomerResponse>;
export type CustomerList = z.infer<typeof customerListResponse>;
export type ProvisionedCustomer = z.infer<typeof provisionedCustomerResponse>;
export type CustomerKeyRecord = z.infer<typeof apiKeyResponse>;
export type CustomerKeyList = z.infer<typeof apiKeyListResponse>;
export type IssuedCustomerKey = z.infer<typeof issuedApiKeyResponse>;
export type RevokedCustomerKey = z.infer<typeof revokedApiKeyResponse>;

export type AdminKeyRecord = z.infer<typeof adminKeyResponse>;
export type AdminKeyList = z.infer<typeof adminKeyListResponse>;
export type IssuedAdminKeyRecord = z.infer<typeof issuedAdminKeyResponse>;
export type RevokedAdminKey = z.infer<typeof revokedAdminKeyResponse>;

export type AuditLogPage = z.infer<typeof auditPageResponse>;
export type ActivityItem = z.infer<typeof activityResponse>;
export type ActivityFeedPage = z.infer<typeof activityPageResponse>;
export type ApplicationStatistics = z.infer<typeof statisticsResponse>;
export type ApplicationAdoption = z.infer<typeof adoptionResponse>;
export type CustomerAdoptionList = z.infer<typeof customerAdoptionListResponse>;

/** A download URL as GET /v1/downloads/url answers it. */
export type DownloadUrl = z.infer<typeof downloadResponse>;
export type LicenceRecord = z.infer<typeof licenceResponse>;
export type LicenceAcceptanceRecord = z.infer<typeof licenceAcceptanceResponse>;

export type WebhookRecord = z.infer<typeof webhookResponse>;
export type CreatedWebhook = z.infer<typeof createdWebhookResponse>;
export type WebhookList = z.infer<typeof webhookListResponse>;
export type DeletedWebhook = z.infer<typeof deletedWebhookResponse>;
export type RotatedWebhookSecret = z.infer<typeof rotatedSecretResponse>;
export type DeliveryRecord = z.infer<typeof deliveryResponse>;
export type DeliveryList = z.infer<typeof deliveryListResponse>;

/** The releases a customer may download, as GET /v1/downloads/releases answers them. */
export type ReleaseList = z.infer<typeof releaseListResponse>;
export type CreatedShareLink = z.infer<typeof createdShareLinkResponse>;
export type AccessTokenRecord = z.infer<typeof accessTokenResponse>;
export type IssuedAccessToken = z.infer<typeof issuedAccessTokenResponse>;
export type AccessTokenList = z.infer<typeof accessTokenListResponse>;
export type AccessTokenWithUsage = z.infer<typeof accessTokenWithUsageResponse>;
export type RevokedShareLink = z.infer<typeof revokedShareLinkResponse>;

export type ApplicationRepositories = z.infer<typeof repositoriesResponse>;
export type AttestationRecord = z.infer<typeof attestationResponse>;
export type TufRepository = z.infer<typeof tufRepositoryResponse>;
export type AttestationList = z.infer<typeof attestationListResponse>;
export type AttestationKeyRecord = z.infer<typeof attestationKeyResponse>;
export type AttestationKeyList = z.infer<typeof attestationKeyListResponse>;

export type ReleaseHealth = z.infer<typeof releaseHealthResponse>;
export type RolloutPlan = z.infer<typeof rolloutPlanResponse>;
