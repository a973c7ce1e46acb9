import { operationRoute } from '../http/operation-route';
import { redirectResponse } from '../../shared/contract/downloads';
import { documentResponse,route } from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { RepositoryAnswers } from './repo-answers';
import type { RepositoryKeys } from './repository-keys';
import { notFound } from '../../shared/errors';
import { presentRepositories } from '../../shared/contract/repositories';
import { inParams } from '../http/access';
import { aptByHashParams,aptIndexParams,aptSuiteParams,poolParams,repositoryParams,rpmChannelParams,rpmMetadataParams,rpmPackageParams,rpmRepoFileParams } from '../../shared/contract/repositories-requests';

const APT = '/v1/repos/:applicationId/apt';
const RPM = '/v1/repos/:applicationId/rpm';

const PUBLIC_KEYS = documentResponse('application/pgp-keys', 'The OpenPGP public keys that sign the repository (the current one and any still in its overlap after a rotation), armoured');
const IN_RELEASE = documentResponse('text/plain', "apt's InRelease: the suite's Release, cleartext-signed");
const RELEASE = documentResponse('text/plain', "apt's Release: Suite and Codename (the channel), Date, Valid-Until, every index with its size and SHA256");
const RELEASE_GPG = documentResponse('application/pgp-signature', "apt's Release.gpg: a detached signature of Release");
const REPOMD = documentResponse('application/xml', "dnf's repodata/repomd.xml: primary, filelists and other with their SHA256 digests and sizes");
const REPOMD_SIGNATURE = documentResponse('application/pgp-signature', "dnf's repodata/repomd.xml.asc: a detached signature of repomd.xml (repo_gpgcheck)");
const REPODATA = documentResponse('application/gzip', "dnf's primary.xml.gz, filelists.xml.gz or other.xml.gz");
const REPO_FILE = documentResponse('text/plain', 'A .repo file for /etc/yum.repos.d/: baseurl, gpgcheck=1, repo_gpgcheck=1, gpgkey');
const PACKAGES = documentResponse('text/plain', "apt's Packages (or Packages.gz): each offered .deb's control paragraph with Filename, Size, SHA256 and SHA512");

/**
 * The customer's apt repository of an application: `deb [signed-by=...] {base}/t/{token}/v1/repos/{app}/apt {channel} main`
 * (or the same URL without `/t/{token}` and HTTP Basic credentials: the customer id and an access
 * token). Every answer is the customer's own (access, tier, channel cascade, rollout), so none is
 * stored by a shared cache (`no-store`).
 */
export const repoRoutes: RouteModule<{ repositoryAnswers: RepositoryAnswers; repositoryKeys: RepositoryKeys }> = (deps, { repositoryAnswers: answers, repositoryKeys: keys }) => {
  const { channels } = deps.config;
  const repositories = async (applicationId: string) => presentRepositories(applicationId, await keys.ring(applicationId),
    await deps.store.versions.listVersions(applicationId), channels);
  return [
    operationRoute(deps.config, 'getApplicationRepositories', {
      guard: 'admin', scope: 'read',
      summary: "What the application's apt and rpm repositories serve per channel, and their signing keys (public parts)",
      application: inParams('applicationId'), status: 200,
      handle: async ({ params }) => { await keys.requireApplication(params.applicationId); return repositories(params.applicationId); },
    }),
    operationRoute(deps.config, 'rotateRepositoryKey', {
      guard: 'admin', scope: 'manage',
      summary: 'Generate a new signing key; the previous ones keep signing and are still served for the overlap (30 days)',
      application: inParams('applicationId'), audit: { action: 'repositoryKey.rotate', target: inParams('applicationId') },
      status: 200, failures: [409],
      handle: async ({ params }) => {
        await keys.requireApplication(params.applicationId);
        await keys.rotate(params.applicationId);
        return repositories(params.applicationId);
      },
    }),
    operationRoute(deps.config, 'importRepositoryKey', {
      guard: 'admin', scope: 'manage',
      summary: "Import the vendor's OpenPGP signing key (Ed25519 or RSA of 3072 bits and more); the previous ones keep signing for the overlap",
      application: inParams('applicationId'), audit: { action: 'repositoryKey.import', target: inParams('applicationId') },
      status: 200, failures: [409],
      handle: async ({ params, body }) => {
        await keys.requireApplication(params.applicationId);
        await keys.import(params.applicationId, body.privateKey, body.passphrase);
        return repositories(params.applicationId);
      },
    }),
    route({
      method: 'get', path: `${APT}/key.asc`, operationId: 'getAptRepositoryKey', guard: 'customer', noStore: true,
      summary: "The apt repository's signing keys (for `signed-by`, after `gpg --dearmor`)",
      params: repositoryParams, status: 200, response: PUBLIC_KEYS,
      handle: ({ params }, ctx, customer) => answers.publicKeys(ctx, customer, params.applicationId),
    }),
    ...(['InRelease', 'Release', 'Release.gpg'] as const).map((name) => route({
      method: 'get', path: `${APT}/dists/:channel/${name}`, operationId: `getApt${name === 'Release.gpg' ? 'ReleaseSignature' : name}`, guard: 'customer', noStore: true,
      summary: `apt's ${name} of a suite (a channel, with the more stable channels' releases)`,
      params: aptSuiteParams(channels), hot: true, status: 200, response: name === 'InRelease' ? IN_RELEASE : name === 'Release' ? RELEASE : RELEASE_GPG,
      handle: ({ params }, ctx, customer) => answers.aptSuiteFile(ctx, customer, params.applicationId, params.channel, name),
    })),
    route({
      method: 'get', path: `${APT}/dists/:channel/:component/:binary/:indexFile`, operationId: 'getAptPackages', guard: 'customer', noStore: true,
      summary: "apt's Packages or Packages.gz of a suite and architecture",
      params: aptIndexParams(channels), hot: true, status: 200, response: PACKAGES,
      handle: ({ params }, ctx, customer) =>
        answers.aptIndex(ctx, customer, params.applicationId, params.channel, `${params.component}/${params.binary}/${params.indexFile}`),
    }),
    route({
      method: 'get', path: `${APT}/dists/:channel/:component/:binary/by-hash/SHA256/:hash`, operationId: 'getAptIndexByHash', guard: 'customer', noStore: true,
      summary: "An index of a suite by its SHA256 (Release says Acquire-By-Hash): the current suite's, or the one answered before it",
      params: aptByHashParams(channels), hot: true, status: 200, response: PACKAGES,
      handle: ({ params }, ctx, customer) =>
        answers.aptIndexByHash(ctx, customer, params.applicationId, params.channel, `${params.component}/${params.binary}`, params.hash),
    }),
    route({
      method: 'get', path: `${APT}/pool/:version/:fileName`, operationId: 'getAptPackage', guard: 'customer', noStore: true,
      summary: 'A .deb the repository lists: one download event (GET without Range), 302 to a pre-signed URL',
      params: poolParams, status: 302, failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => answers.packageFile(ctx, customer, 'deb', params),
    }),
    route({
      method: 'get', path: `${RPM}/key.asc`, operationId: 'getRpmRepositoryKey', guard: 'customer', noStore: true,
      summary: "The rpm repository's signing keys (the .repo file's gpgkey)",
      params: repositoryParams, status: 200, response: PUBLIC_KEYS,
      handle: ({ params }, ctx, customer) => answers.publicKeys(ctx, customer, params.applicationId),
    }),
    route({
      method: 'get', path: `${RPM}/:channel/repodata/repomd.xml`, operationId: 'getRpmRepomd', guard: 'customer', noStore: true,
      summary: "dnf's repomd.xml of a channel (with the more stable channels' releases)",
      params: rpmChannelParams(channels), hot: true, status: 200, response: REPOMD,
      handle: ({ params }, ctx, customer) => answers.rpmRepomd(ctx, customer, params.applicationId, params.channel, false),
    }),
    route({
      method: 'get', path: `${RPM}/:channel/repodata/repomd.xml.asc`, operationId: 'getRpmRepomdSignature', guard: 'customer', noStore: true,
      summary: "dnf's repomd.xml.asc: repomd.xml's detached signature",
      params: rpmChannelParams(channels), hot: true, status: 200, response: REPOMD_SIGNATURE,
      handle: ({ params }, ctx, customer) => answers.rpmRepomd(ctx, customer, params.applicationId, params.channel, true),
    }),
    route({
      method: 'get', path: `${RPM}/:channel/repodata/:fileName`, operationId: 'getRpmMetadata', guard: 'customer', noStore: true,
      summary: "dnf's primary.xml.gz, filelists.xml.gz or other.xml.gz of a channel",
      params: rpmMetadataParams(channels), hot: true, status: 200, response: REPODATA,
      handle: ({ params }, ctx, customer) => answers.rpmMetadata(ctx, customer, params.applicationId, params.channel, params.fileName),
    }),
    route({
      method: 'get', path: `${RPM}/:channel/:repoFile`, operationId: 'getRpmRepoFile', guard: 'customer', noStore: true,
      summary: 'The channel\'s .repo file, `{applicationId}.repo`, for /etc/yum.repos.d/',
      params: rpmRepoFileParams(channels), status: 200, response: REPO_FILE,
      handle: ({ params }, ctx, customer) => {
        if (params.repoFile !== `${params.applicationId}.repo`) throw notFound(`no file ${params.repoFile}`);
        return answers.rpmRepoFile(ctx, customer, params.applicationId, params.channel);
      },
    }),
    route({
      method: 'get', path: `${RPM}/:channel/packages/:version/:fileName`, operationId: 'getRpmPackage', guard: 'customer', noStore: true,
      summary: 'An .rpm the repository lists: one download event (GET without Range), 302 to a pre-signed URL',
      params: rpmPackageParams(channels), status: 302, failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) =>
        answers.packageFile(ctx, customer, 'rpm', { applicationId: params.applicationId, version: params.version, fileName: params.fileName }),
    }),
  ];
};
