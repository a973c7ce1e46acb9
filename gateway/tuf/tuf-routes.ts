import { operationRoute } from '../http/operation-route';
import { redirectResponse } from '../../shared/contract/downloads';
import { inParams } from '../http/access';
import { documentResponse,route } from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { TufAnswers } from './tuf-answers';
import { metadataDocument,tufMetadataParams,tufTargetParams } from '../../shared/contract/tuf-requests';

const REPOSITORY = '/v1/tuf/:applicationId';

const METADATA = documentResponse('application/json', 'A signed TUF metadata document (specification 1.0), the exact bytes its hashes and signatures cover');

/**
 * An application's TUF repository (The Update Framework 1.0): a TUF client's metadata URL is
 * `{base}/v1/tuf/{applicationId}` (or `{base}/t/{token}/v1/tuf/{applicationId}`), its targets URL the
 * same plus `/targets`. The vendor keeps the root keys; the service signs the online roles.
 */
export const tufRoutes: RouteModule<{ tufAnswers: TufAnswers }> = (deps, { tufAnswers: answers }) => {
  const { channels } = deps.config;
  return [
    operationRoute(deps.config, 'getTufRepository', {
      guard: 'admin', scope: 'read',
      summary: "The application's TUF repository: the service's online public keys (a root must name them) and the latest root the vendor uploaded",
      application: inParams('applicationId'), status: 200,
      handle: ({ params }) => answers.describe(params.applicationId),
    }),
    operationRoute(deps.config, 'uploadTufRoot', {
      guard: 'admin', scope: 'manage',
      summary: "Upload the next root the vendor signed offline (`bds tuf init`, `bds tuf rotate`): version N+1, signed by a threshold of its own root keys and of root N's, naming the online keys; the online roles are signed at once",
      application: inParams('applicationId'), audit: { action: 'tufRoot.upload', target: inParams('applicationId') },
      status: 201, failures: [404, 409, 422],
      handle: ({ params, body }) => answers.uploadRoot(params.applicationId, body),
    }),
    route({
      method: 'get', path: `${REPOSITORY}/:metadataFile`, operationId: 'getTufMetadata', guard: 'customer',
      summary: 'A TUF metadata document: root.json, {N}.root.json, timestamp.json, snapshot.json, targets.json or a channel\'s delegated targets role {channel}.json; to every customer who may use the application',
      params: tufMetadataParams(channels), status: 200, response: METADATA,
      handle: ({ params }, ctx, customer) => answers.metadata(ctx, customer, params.applicationId, metadataDocument(params.metadataFile, channels)!),
    }),
    route({
      method: 'get', path: `${REPOSITORY}/targets/:version/:fileName`, operationId: 'getTufTarget', guard: 'customer', noStore: true,
      summary: 'A target (a published file, target path {version}/{fileName}): the download rules, one download event (GET without Range), 302 to a pre-signed URL',
      params: tufTargetParams, status: 302, failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => answers.target(ctx, customer, params),
    }),
  ];
};
