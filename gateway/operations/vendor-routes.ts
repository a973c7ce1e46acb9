import { operationRoute } from '../http/operation-route';
import fs from 'node:fs';
import { presentVendor,VENDOR_LOGO_PATH } from '../../shared/contract/vendor';
import { notFound } from '../../shared/errors';
import { sniffImageType } from '../../shared/image-type';
import type { RouteModule } from '../gateway-deps';
import { documentResponse,route } from '../http/route';

/**
 * GET /v1/vendor and its logo: who distributes here (VENDOR_NAME, VENDOR_LOGO), for the pages people
 * see before any key: the portal's sign-in and a share link's error page. The logo, checked at start
 * (shared/config.ts), is read once.
 */
export const vendorRoutes: RouteModule = (deps) => {
  const { vendor } = deps.config;
  const logo = vendor.logoFile ? fs.readFileSync(vendor.logoFile) : null;
  const logoType = logo ? sniffImageType(logo) : null;
  return [
    operationRoute(deps.config, 'getVendor', {
      guard: 'none', summary: "The vendor's name and logo, as the pages shown before signing in name them",
      status: 200,
      handle: () => presentVendor(vendor),
    }),
    route({
      method: 'get', path: VENDOR_LOGO_PATH, operationId: 'getVendorLogo', guard: 'none', summary: "The vendor's logo (VENDOR_LOGO); 404 without one",
      status: 200, response: documentResponse('image/png', 'The logo: a PNG, JPEG or WebP image'),
      handle: (_input, ctx) => {
        if (!logo || !logoType) throw notFound('no vendor logo: VENDOR_LOGO is not set');
        ctx.status = 200;
        ctx.type = logoType;
        ctx.set('Cache-Control', 'public, max-age=3600');
        ctx.set('X-Content-Type-Options', 'nosniff');
        ctx.body = logo;
      },
    }),
  ];
};
