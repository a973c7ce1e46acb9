import { defaultChannel } from '../../../shared/releases/channels';
import { documentResponse, route } from '../../http/route';
import type { RouteModule } from '../../gateway-deps';
import { squirrelMacParams, squirrelMacQuery } from '../update-schemas';
import type { SquirrelMacAnswers } from './squirrel-mac-answers';

const SQUIRREL_UPDATE = documentResponse('application/json', "Squirrel.Mac's update: {url, name, notes, pub_date}; 204 has no body");

/** Squirrel.Mac (Electron's autoUpdater on macOS) sends no header of the app's with its download: its answer carries the pre-signed URL. */
export const squirrelMacRoutes: RouteModule<{ squirrelMacAnswers: SquirrelMacAnswers }> = (deps, { squirrelMacAnswers }) => {
  const { channels } = deps.config;
  const stable = defaultChannel(channels);
  return [
    route({
      method: 'get', path: '/v1/updates/:applicationId/squirrel-mac/:currentVersion', operationId: 'checkSquirrelMacUpdate', guard: 'customer', noStore: true,
      summary: "Squirrel.Mac's check (Electron's autoUpdater on macOS): 204 when up to date, else the zip's pre-signed URL",
      params: squirrelMacParams, query: squirrelMacQuery(channels), hot: true,
      status: [200, 204], response: SQUIRREL_UPDATE,
      // What the app puts in `arch` from process.arch; Intel when left out.
      handle: ({ params, query }, ctx, customer) =>
        squirrelMacAnswers.check(ctx, customer, { applicationId: params.applicationId, arch: query.arch ?? 'x64', channel: query.channel ?? stable, running: params.currentVersion }),
    }),
  ];
};
