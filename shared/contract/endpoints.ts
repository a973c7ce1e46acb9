/*
 * Where each operation of the JSON API is: its method and path, and whether it takes a query and what
 * kind of body. The addresses column of the operations table (operations.ts holds the schemas, keyed
 * the same, and fails to compile when the two disagree). Kept free of zod so that the browser apps'
 * client (client.ts) carries the addresses without the schemas.
 */

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface Endpoint {
  method: HttpMethod;
  /** Koa-router syntax: every `:name` is a path parameter. */
  path: string;
  /** Whether the operation takes query parameters. */
  query?: true;
  /** JSON, a multipart form, or raw bytes of a media type. */
  body?: 'json' | 'form' | 'bytes';
  /** An answer outside the envelope (an image): the client only builds its URL. */
  answer?: 'bytes';
}

export const endpoints = {
  createAdminKey: { method: 'post', path: '/v1/management/apikeys', body: 'json' },
  listAdminKeys: { method: 'get', path: '/v1/management/apikeys' },
  revokeAdminKey: { method: 'delete', path: '/v1/management/apikeys/:keyId' },
  listAuditEntries: { method: 'get', path: '/v1/management/audit', query: true },
  createApplication: { method: 'post', path: '/v1/management/applications', body: 'json' },
  listApplications: { method: 'get', path: '/v1/management/applications', query: true },
  getApplication: { method: 'get', path: '/v1/management/applications/:applicationId', query: true },
  updateApplication: { method: 'patch', path: '/v1/management/applications/:applicationId', body: 'json' },
  deleteApplication: { method: 'delete', path: '/v1/management/applications/:applicationId' },
  restoreApplication: { method: 'post', path: '/v1/management/applications/:applicationId/restore' },
  setApplicationLogo: { method: 'put', path: '/v1/management/applications/:applicationId/logo', body: 'bytes' },
  getAdminApplicationLogo: { method: 'get', path: '/v1/management/applications/:applicationId/logo', answer: 'bytes' },
  removeApplicationLogo: { method: 'delete', path: '/v1/management/applications/:applicationId/logo' },
  listVersions: { method: 'get', path: '/v1/management/applications/:applicationId/versions', query: true },
  updateVersion: { method: 'patch', path: '/v1/management/applications/:applicationId/versions/:version', body: 'json' },
  getAdminFileDownloadUrl: { method: 'get', path: '/v1/management/applications/:applicationId/versions/:version/files/:fileId/download' },
  deleteDraftVersion: { method: 'delete', path: '/v1/management/applications/:applicationId/versions/:version' },
  deleteVersionFile: { method: 'delete', path: '/v1/management/applications/:applicationId/versions/:version/files/:fileId' },
  purgeApplicationReleases: { method: 'post', path: '/v1/management/applications/:applicationId/purge' },
  // The health is read beside the application's other statistics (stats, adoption).
  getVersionHealth: { method: 'get', path: '/v1/applications/:applicationId/versions/:version/health' },
  resumeVersionRollout: { method: 'post', path: '/v1/management/applications/:applicationId/versions/:version/rollout/resume' },
  stopVersionRollout: { method: 'post', path: '/v1/management/applications/:applicationId/versions/:version/rollout/stop' },
  addFileAttestation: { method: 'post', path: '/v1/management/applications/:applicationId/versions/:version/files/:fileId/attestations', body: 'json' },
  listFileAttestations: { method: 'get', path: '/v1/management/applications/:applicationId/versions/:version/files/:fileId/attestations' },
  addAttestationKey: { method: 'post', path: '/v1/management/applications/:applicationId/attestation-keys', body: 'json' },
  listAttestationKeys: { method: 'get', path: '/v1/management/applications/:applicationId/attestation-keys' },
  listDownloadAttestations: { method: 'get', path: '/v1/downloads/files/:fileId/attestations' },
  createAccessToken: { method: 'post', path: '/v1/management/customers/:customerId/tokens', body: 'json' },
  listAccessTokens: { method: 'get', path: '/v1/management/customers/:customerId/tokens' },
  getAccessToken: { method: 'get', path: '/v1/management/customers/:customerId/tokens/:tokenId' },
  updateAccessToken: { method: 'patch', path: '/v1/management/customers/:customerId/tokens/:tokenId', body: 'json' },
  revokeAccessToken: { method: 'delete', path: '/v1/management/customers/:customerId/tokens/:tokenId' },
  createCustomer: { method: 'post', path: '/v1/management/customers', body: 'json' },
  listCustomers: { method: 'get', path: '/v1/management/customers', query: true },
  getCustomer: { method: 'get', path: '/v1/management/customers/:customerId' },
  updateCustomer: { method: 'patch', path: '/v1/management/customers/:customerId', body: 'json' },
  deleteCustomer: { method: 'delete', path: '/v1/management/customers/:customerId' },
  issueCustomerApiKey: { method: 'post', path: '/v1/management/customers/:customerId/apikeys', body: 'json' },
  listCustomerApiKeys: { method: 'get', path: '/v1/management/customers/:customerId/apikeys' },
  revokeCustomerApiKey: { method: 'delete', path: '/v1/management/customers/:customerId/apikeys/:keyId' },
  grantCustomerApplicationAccess: { method: 'put', path: '/v1/management/customers/:customerId/applications/:applicationId', body: 'json' },
  revokeCustomerApplicationAccess: { method: 'delete', path: '/v1/management/customers/:customerId/applications/:applicationId' },
  listCustomerShareLinks: { method: 'get', path: '/v1/management/customers/:customerId/share-links' },
  createCustomerShareLink: { method: 'post', path: '/v1/management/customers/:customerId/share-links', body: 'json' },
  revokeCustomerShareLink: { method: 'delete', path: '/v1/management/customers/:customerId/share-links/:shareLinkId' },
  getDownloadUrl: { method: 'get', path: '/v1/downloads/url', query: true },
  getLatestDownload: { method: 'get', path: '/v1/downloads/latest/:applicationId/:platform', query: true },
  getLatestDownloadForArch: { method: 'get', path: '/v1/downloads/latest/:applicationId/:platform/:arch', query: true },
  listCustomerApplications: { method: 'get', path: '/v1/downloads/applications', query: true },
  getApplicationLogo: { method: 'get', path: '/v1/downloads/applications/:applicationId/logo', answer: 'bytes' },
  getLicence: { method: 'get', path: '/v1/downloads/licence/:applicationId' },
  acceptLicence: { method: 'post', path: '/v1/downloads/licence/:applicationId/accept', body: 'json' },
  createShareLink: { method: 'post', path: '/v1/downloads/share', body: 'json' },
  listReleases: { method: 'get', path: '/v1/downloads/releases', query: true },
  revokeShareLink: { method: 'delete', path: '/v1/downloads/share/:token' },
  getApplicationRepositories: { method: 'get', path: '/v1/management/applications/:applicationId/repositories' },
  rotateRepositoryKey: { method: 'post', path: '/v1/management/applications/:applicationId/repositories/rotate-key', body: 'json' },
  importRepositoryKey: { method: 'put', path: '/v1/management/applications/:applicationId/repositories/key', body: 'json' },
  getApplicationStatistics: { method: 'get', path: '/v1/applications/:applicationId/stats', query: true },
  getApplicationAdoption: { method: 'get', path: '/v1/applications/:applicationId/adoption', query: true },
  listCustomerAdoption: { method: 'get', path: '/v1/applications/:applicationId/customers/adoption', query: true },
  listActivity: { method: 'get', path: '/v1/activity', query: true },
  getTufRepository: { method: 'get', path: '/v1/management/applications/:applicationId/tuf' },
  uploadTufRoot: { method: 'post', path: '/v1/management/applications/:applicationId/tuf/roots', body: 'json' },
  createMultipartUpload: { method: 'post', path: '/v1/management/uploads/multipart', body: 'json' },
  createMultipartPartUrls: { method: 'post', path: '/v1/management/uploads/:uploadId/parts', body: 'json' },
  completeMultipartUpload: { method: 'post', path: '/v1/management/uploads/:uploadId/complete' },
  abortUpload: { method: 'delete', path: '/v1/management/uploads/:uploadId' },
  uploadSmallFile: { method: 'post', path: '/v1/management/upload', body: 'form' },
  createLargeUpload: { method: 'post', path: '/v1/management/upload/large-url', body: 'json' },
  completeLargeUpload: { method: 'post', path: '/v1/management/upload/large-complete', body: 'json' },
  getUpload: { method: 'get', path: '/v1/management/uploads/:uploadId' },
  createWebhook: { method: 'post', path: '/v1/management/webhooks', body: 'json' },
  listWebhooks: { method: 'get', path: '/v1/management/webhooks', query: true },
  getWebhook: { method: 'get', path: '/v1/management/webhooks/:webhookId' },
  updateWebhook: { method: 'patch', path: '/v1/management/webhooks/:webhookId', body: 'json' },
  deleteWebhook: { method: 'delete', path: '/v1/management/webhooks/:webhookId' },
  rotateWebhookSecret: { method: 'post', path: '/v1/management/webhooks/:webhookId/rotate-secret', body: 'json' },
  listWebhookDeliveries: { method: 'get', path: '/v1/management/webhooks/:webhookId/deliveries', query: true },
  redeliverWebhookDelivery: { method: 'post', path: '/v1/management/webhooks/:webhookId/deliveries/:deliveryId/redeliver', body: 'json' },
  getCaller: { method: 'get', path: '/v1/me' },
  getVendor: { method: 'get', path: '/v1/vendor' },
} as const satisfies Record<string, Endpoint>;

export type OperationId = keyof typeof endpoints;

/** Where the service describes this API (OpenAPI 3.1), without a key. */
export const API_DESCRIPTION_PATH = '/v1/openapi.json';
