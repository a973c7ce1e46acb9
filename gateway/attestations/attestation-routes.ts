import { inParams } from '../http/access';
import { route } from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { DownloadService } from '../downloads/download-service';
import {
  attestationKeyListResponse, attestationKeyResponse, attestationListResponse, attestationResponse,
  presentAttestation, presentAttestationKey, presentAttestationList,
} from '../../shared/contract/attestations';
import { notFound } from '../../shared/errors';
import { addAttestationKeySchema, attestationBody, attestationKeyParams, customerFileParams, fileAttestationParams } from '../../shared/contract/attestations-requests';
import type { AttestationService } from './attestation-service';

const FILE_ATTESTATIONS = '/v1/management/applications/:applicationId/versions/:version/files/:fileId/attestations';
const ATTESTATION_KEYS = '/v1/management/applications/:applicationId/attestation-keys';
export const CUSTOMER_FILE_ATTESTATIONS = '/v1/downloads/files/:fileId/attestations';

/**
 * Provenance attestations: a vendor adds in-toto statements (DSSE envelopes or Sigstore bundles) to
 * available files, published ones included, and registers the keys that check them; a customer who
 * may download a file reads its attestations.
 */
export const attestationRoutes: RouteModule<{ attestations: AttestationService; downloads: DownloadService }> = (deps, { attestations, downloads }) => [
  route({
    method: 'post', path: FILE_ATTESTATIONS, operationId: 'addFileAttestation', guard: 'admin', scope: 'publish',
    summary: "Add a provenance attestation to an available file (published too: it changes no byte): an in-toto statement whose subject has the file's SHA-256 or SHA-512, in a DSSE envelope or a Sigstore bundle; its signatures are verified offline and the result kept",
    application: inParams('applicationId'),
    audit: { action: 'attestation.add', target: [inParams('applicationId'), inParams('version'), inParams('fileId')] },
    params: fileAttestationParams, body: attestationBody,
    status: 201, failures: [404, 409, 413, 422], response: attestationResponse,
    handle: async ({ params, body }) => presentAttestation(await attestations.add(params.applicationId, params.version, params.fileId, body)),
  }),
  route({
    method: 'get', path: FILE_ATTESTATIONS, operationId: 'listFileAttestations', guard: 'admin', scope: 'read',
    summary: "A file's provenance attestations, oldest first, with what their predicates say and their verification",
    application: inParams('applicationId'),
    params: fileAttestationParams,
    status: 200, failures: [404], response: attestationListResponse,
    handle: async ({ params }) => presentAttestationList(await attestations.listForFile(params.applicationId, params.version, params.fileId)),
  }),
  route({
    method: 'post', path: ATTESTATION_KEYS, operationId: 'addAttestationKey', guard: 'admin', scope: 'manage',
    summary: "Register a public key (Ed25519 or ECDSA P-256, PEM) that verifies the application's attestations: a DSSE signature's keyid, a Sigstore bundle's public-key hint",
    application: inParams('applicationId'),
    audit: { action: 'attestationKey.add', target: inParams('applicationId') },
    params: attestationKeyParams, body: addAttestationKeySchema,
    status: 201, failures: [409, 422], response: attestationKeyResponse,
    handle: async ({ params, body }) => presentAttestationKey(await attestations.addKey(params.applicationId, body.publicKey, body.keyId)),
  }),
  route({
    method: 'get', path: ATTESTATION_KEYS, operationId: 'listAttestationKeys', guard: 'admin', scope: 'read',
    summary: "The public keys registered to verify the application's attestations, oldest first",
    application: inParams('applicationId'),
    params: attestationKeyParams,
    status: 200, response: attestationKeyListResponse,
    handle: async ({ params }) => ({ keys: (await attestations.listKeys(params.applicationId)).map(presentAttestationKey) }),
  }),
  route({
    method: 'get', path: CUSTOMER_FILE_ATTESTATIONS, operationId: 'listDownloadAttestations', guard: 'customer', noStore: true,
    summary: 'The provenance attestations of a file the customer may download (the download rules decide), oldest first',
    params: customerFileParams,
    status: 200, failures: [404, 410], response: attestationListResponse,
    handle: async ({ params }, _ctx, customer) => {
      const file = await deps.store.versions.getFile(params.fileId);
      if (!file) throw notFound('file not found');
      await downloads.check(customer, { applicationId: file.applicationId, version: file.version, fileId: file.fileId });
      return presentAttestationList(await attestations.listGranted(file.fileId));
    },
  }),
];
