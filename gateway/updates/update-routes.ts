import { redirectResponse } from '../../shared/contract/downloads';
import { documentResponse, route} from '../http/route';
import type { RouteModule } from '../gateway-deps';
import type { UpdateAnswers } from './update-answers';
import {
  electronChannelFileParams,
  electronChannelFileQuery,
  electronFileParams,
  squirrelMacParams,
  squirrelMacQuery,
  tauriCheckParams,
  tauriCheckQuery,
} from './update-schemas';

const UPDATES_PATH = '/v1/updates';
const APPLICATION_UPDATES = `${UPDATES_PATH}/:applicationId`;

/** What the feeds answer outside the envelope, for the API description. */
const CHANNEL_FILE = documentResponse('text/yaml', "electron-updater's channel file (UpdateInfo): version, files [{url, sha512, size}], path, sha512, releaseDate, releaseNotes");
const TAURI_UPDATE = documentResponse('application/json', "Tauri's update: {version, url, signature, notes, pub_date}; 204 has no body");
const SQUIRREL_UPDATE = documentResponse('application/json', "Squirrel.Mac's update: {url, name, notes, pub_date}; 204 has no body");

/**
 * Update feeds for installed apps (electron-updater, Tauri, Squirrel.Mac), with the customer's key
 * and the download rules. electron-updater and Tauri send the feed's headers with their downloads, so
 * their file links come back here (one download event, 302 to a pre-signed URL); Squirrel.Mac sends
 * none, so its answer carries the pre-signed URL and the event is recorded when it is answered.
 */
export const updateRoutes: RouteModule<{ updateAnswers: UpdateAnswers }> = (deps, { updateAnswers: answers }) => {
  const { channels } = deps.config;
  return [
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/electron/:channelFile`, operationId: 'getElectronChannelFile', guard: 'customer', noStore: true,
      summary: "electron-updater's channel file (latest.yml, latest-mac.yml, beta-linux-arm64.yml, ...) for the generic provider",
      params: electronChannelFileParams(channels), query: electronChannelFileQuery, hot: true,
      status: 200, response: CHANNEL_FILE,
      handle: ({ params }, ctx, customer) => answers.electronChannelFile(ctx, customer, params.applicationId, params.channelFile),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/electron/:version/:fileName`, operationId: 'getElectronUpdateFile', guard: 'customer', noStore: true,
      summary: 'A file the update feeds link to: one download event (GET without Range), 302 to a pre-signed URL; '
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), without one a range of at most 64 MiB here and others redirected; '
        + 'its `{fileName}.blockmap` (of the version offered or of any version customers have had) is no download',
      params: electronFileParams,
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => answers.electronFile(ctx, customer, params),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/tauri/:target/:arch/:currentVersion`, operationId: 'checkTauriUpdate', guard: 'customer', noStore: true,
      summary: "Tauri updater's dynamic-server check: 204 when up to date, else the newest signed release",
      params: tauriCheckParams, query: tauriCheckQuery(channels), hot: true,
      status: [200, 204], response: TAURI_UPDATE,
      handle: ({ params, query }, ctx, customer) =>
        answers.tauriCheck(ctx, customer, params.applicationId, { target: params.target, arch: params.arch, channel: query.channel }, params.currentVersion),
    }),
    route({
      method: 'get', path: `${APPLICATION_UPDATES}/squirrel-mac/:currentVersion`, operationId: 'checkSquirrelMacUpdate', guard: 'customer', noStore: true,
      summary: "Squirrel.Mac's check (Electron's autoUpdater on macOS): 204 when up to date, else the zip's pre-signed URL",
      params: squirrelMacParams, query: squirrelMacQuery(channels), hot: true,
      status: [200, 204], response: SQUIRREL_UPDATE,
      // What the app puts in `arch` from process.arch; Intel when left out.
      handle: ({ params, query }, ctx, customer) =>
        answers.squirrelMacCheck(ctx, customer, params.applicationId, { arch: query.arch ?? 'x64', channel: query.channel }, params.currentVersion),
    }),
  ];
};
