import { operationRoute } from '../http/operation-route';
import { inParams } from '../http/access';
import type { RouteModule } from '../gateway-deps';
import type { DownloadService } from '../downloads/download-service';
import {
presentAttestation,presentAttestationKey,presentAttestationList
} from '../../shared/contract/attestations';
import { notFound } from '../../shared/errors';
import type { AttestationService } from './attestation-service';

export const CUSTOMER_FILE_ATTESTATIONS = '/v1/downloads/files/:fileId/attestations';

/**
 * Provenance attestations: a vendor adds in-toto statements (DSSE envelopes or Sigstore bundles) to
 * available files, published ones included, and registers the keys that check them; a customer who
 * may download a file reads its attestations.
 */
export const attestationRoutes: RouteModule<{ attestations: AttestationService; downloads: DownloadService }> = (deps, { attestations, downloads }) => [
  operationRoute(deps.config, 'addFileAttestation', {
    guard: 'admin', scope: 'publish',
    summary: "Add a provenance attestation to an available file (published too: it changes no byte): an in-toto statement whose subject has the file's SHA-256 or SHA-512, in a DSSE envelope or a Sigstore bundle; its signatures are verified offline and the result kept",
    application: inParams('applicationId'),
    audit: { action: 'attestation.add', target: [inParams('applicationId'), inParams('version'), inParams('fileId')] },
    status: 201, failures: [404, 409, 413, 422],
    handle: async ({ params, body }) => presentAttestation(await attestations.add(params.applicationId, params.version, params.fileId, body)),
  }),
  operationRoute(deps.config, 'listFileAttestations', {
    guard: 'admin', scope: 'read',
    summary: "A file's provenance attestations, oldest first, with what their predicates say and their verification",
    application: inParams('applicationId'),
    status: 200, failures: [404],
    handle: async ({ params }) => presentAttestationList(await attestations.listForFile(params.applicationId, params.version, params.fileId)),
  }),
  operationRoute(deps.config, 'addAttestationKey', {
    guard: 'admin', scope: 'manage',
    summary: "Register a public key (Ed25519 or ECDSA P-256, PEM) that verifies the application's attestations: a DSSE signature's keyid, a Sigstore bundle's public-key hint",
    application: inParams('applicationId'),
    audit: { action: 'attestationKey.add', target: inParams('applicationId') },
    status: 201, failures: [409, 422],
    handle: async ({ params, body }) => presentAttestationKey(await attestations.addKey(params.applicationId, body.publicKey, body.keyId)),
  }),
  operationRoute(deps.config, 'listAttestationKeys', {
    guard: 'admin', scope: 'read',
    summary: "The public keys registered to verify the application's attestations, oldest first",
    application: inParams('applicationId'),
    status: 200,
    handle: async ({ params }) => ({ keys: (await attestations.listKeys(params.applicationId)).map(presentAttestationKey) }),
  }),
  operationRoute(deps.config, 'listDownloadAttestations', {
    guard: 'customer', noStore: true,
    summary: 'The provenance attestations of a file the customer may download (the download rules decide), oldest first',
    status: 200, failures: [404, 410],
    handle: async ({ params }, _ctx, customer) => {
      const file = await deps.store.versions.getFile(params.fileId);
      if (!file) throw notFound('file not found');
      await downloads.check(customer, { applicationId: file.applicationId, version: file.version, fileId: file.fileId });
      return presentAttestationList(await attestations.listGranted(file.fileId));
    },
  }),
];
