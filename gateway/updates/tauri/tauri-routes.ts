import { defaultChannel } from '../../../shared/releases/channels';
import { notFound } from '../../../shared/errors';
import { archOfTauriArch, platformOfTauriTarget } from '../../../shared/releases/update-client-names';
import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import type { FeedAnswers } from '../engine/feed-answers';
import { tauriCheckParams, tauriCheckQuery } from '../update-schemas';
import { tauriCheck } from './tauri-family';

const TAURI_UPDATE = documentResponse('application/json', "Tauri's update: {version, url, signature, notes, pub_date}; 204 has no body");

/** Tauri's updater (dynamic server), with the customer's key: its downloads come back to the electron file route with the same headers. */
export const tauriRoutes: RouteModule<{ feedAnswers: FeedAnswers }> = (deps, { feedAnswers }) => {
  const { channels } = deps.config;
  const stable = defaultChannel(channels);
  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/tauri/:target/:arch/:currentVersion', operationId: 'checkTauriUpdate', guard: 'customer', noStore: true,
      summary: "Tauri updater's dynamic-server check: 204 when up to date, else the newest signed release; 304 when If-None-Match names its ETag",
      params: tauriCheckParams, query: tauriCheckQuery(channels), hot: true,
      status: [200, 204, 304], response: TAURI_UPDATE,
      handle: ({ params, query }, ctx, customer) => {
        const platform = platformOfTauriTarget(params.target);
        const arch = archOfTauriArch(params.arch);
        if (!platform || !arch) throw notFound(`no build for Tauri target ${params.target} and arch ${params.arch}`);
        return feedAnswers.answer(tauriCheck, ctx, customer, { applicationId: params.applicationId, platform, arch, channel: query.channel ?? stable, running: params.currentVersion });
      },
    }),
  ];
};
