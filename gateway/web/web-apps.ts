import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import type { Config } from '../../shared/config';
import { notFound } from '../../shared/errors';
import type { AppState } from '../http/context';
import { webAppPolicy } from './content-security';

/** The browser apps the gateway serves, each at `/<name>`, built by `npm run build` (web/build.mjs). */
export const WEB_APPS = ['console', 'portal'] as const;
export type WebAppName = (typeof WEB_APPS)[number];

/** Where the build writes them: dist/public/<name>/ (this file runs from dist/gateway/web/). */
export const WEB_APPS_DIR = path.resolve(__dirname, '..', '..', 'public');

const ASSET_NAME = /^[A-Za-z0-9_-]+\.(js|css|map|svg|png|woff2)$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * Serves the console and the portal: `/<app>/assets/<file>` (content-hashed names: kept a year by
 * browsers) and, for every other path under `/<app>`, the app's page, which routes in the browser.
 * Files are read once and kept in memory (a few hundred KiB). Every answer carries the apps' strict
 * Content-Security-Policy; the pages talk to the public /v1 API like any client.
 */
export function webApps(config: Pick<Config, 's3'>, directory = WEB_APPS_DIR): Koa.Middleware<AppState> {
  const policy = webAppPolicy(config);
  const files = new Map<string, StaticFile>();
  const read = (file: string, type: string): StaticFile | undefined => {
    const known = files.get(file);
    if (known) return known;
    let body: Buffer;
    try {
      body = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    const loaded = { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    files.set(file, loaded);
    return loaded;
  };

  return async (ctx, next) => {
    const app = WEB_APPS.find((name) => ctx.path === `/${name}` || ctx.path.startsWith(`/${name}/`));
    if (!app || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const rest = ctx.path.slice(app.length + 1);
    const assetName = rest.startsWith('/assets/') ? rest.slice('/assets/'.length) : undefined;
    let file: StaticFile | undefined;
    if (assetName !== undefined) {
      const match = ASSET_NAME.exec(assetName);
      file = match ? read(path.join(directory, app, assetName), TYPES[match[1]]) : undefined;
      if (!file) throw notFound('no such file');
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    } else {
      file = read(path.join(directory, app, 'index.html'), 'text/html; charset=utf-8');
      if (!file) throw notFound(`the ${app} is not built: run npm run build`);
      ctx.set('Cache-Control', 'no-cache');
    }
    ctx.set('Content-Security-Policy', policy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    ctx.set('ETag', file.etag);
    ctx.type = file.type;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.status = 200;
    ctx.body = file.body;
  };
}
