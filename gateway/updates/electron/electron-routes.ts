import { redirectResponse } from '../../../shared/contract/downloads';
import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { FeedAnswers } from '../engine/feed-answers';
import type { FeedFileLinks } from '../engine/feed-file-links';
import { UpdateCheckRecorder } from '../update-check-recorder';
import { notFound } from '../../../shared/errors';
import { electronChannelFileParams, electronChannelFileQuery, electronFileParams } from '../update-schemas';
import { electronChannelFile } from './electron-family';

const CHANNEL_FILE = documentResponse('text/yaml', "electron-updater's channel file (UpdateInfo): version, files [{url, sha512, size}], path, sha512, releaseDate, releaseNotes");

/**
 * electron-updater's generic provider, with the customer's key and the download rules: the channel
 * file, and the file route every feed's links name (electron-updater, Tauri and Sparkle send the
 * feed's headers with their downloads: one download event, 302 to a pre-signed URL).
 */
export const electronRoutes: RouteModule<{ feedAnswers: FeedAnswers; feedFileLinks: FeedFileLinks }> = (deps, { feedAnswers, feedFileLinks }) => {
  const { channels } = deps.config;
  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/electron/:channelFile', operationId: 'getElectronChannelFile', guard: 'customer', noStore: true,
      summary: "electron-updater's channel file (latest.yml, latest-mac.yml, beta-linux-arm64.yml, ...) for the generic provider; 304 when If-None-Match names its ETag",
      params: electronChannelFileParams(channels), query: electronChannelFileQuery, hot: true,
      status: [200, 304], response: CHANNEL_FILE,
      handle: ({ params }, ctx, customer) => {
        const { fileName, file } = params.channelFile;
        if (!file) throw notFound(`no channel file ${fileName}: electron-updater asks for <channel>[-mac|-linux[-<arch>]].yml`);
        // electron-updater sends no version unless the app adds X-App-Version (docs/update-feeds.md).
        return feedAnswers.answer(electronChannelFile, ctx, customer, {
          applicationId: params.applicationId, fileName, file,
          appVersion: UpdateCheckRecorder.electronRunningVersion(ctx), installId: UpdateCheckRecorder.electronInstallId(ctx),
        });
      },
    }),
    route({
      method: 'get', path: '/v1/updates/:applicationId/electron/:version/:fileName', operationId: 'getElectronUpdateFile', guard: 'customer', noStore: true,
      summary: 'A file the update feeds link to: one download event (GET without Range), 302 to a pre-signed URL; '
        + 'byte ranges answered 206 here with an access token (counted against its maxBytes), without one a range of at most 64 MiB here and others redirected; '
        + 'its `{fileName}.blockmap` (of the version offered or of any version customers have had) is no download',
      params: electronFileParams,
      status: [302, 206], failures: [410], response: redirectResponse,
      handle: ({ params }, ctx, customer) => feedFileLinks.file(ctx, customer, params),
    }),
  ];
};
