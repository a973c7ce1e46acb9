import type { Readable } from 'node:stream';
import { notFound, ObjectNotFoundError } from '../../shared/errors';
import type { ApplicationLogo } from '../../shared/store/models';
import type { AppContext } from '../http/context';

/** Opens a logo's bytes in object storage. */
export type OpenLogo = (applicationId: string, logo: ApplicationLogo) => Promise<Readable>;

/**
 * Answers an application's logo: the image, or 304 when the request's validator matches, or 404 when
 * it has none. The image is never sniffed as another type nor run as a document (an image opened on
 * its own, or a file that tricked the signature check, cannot script), and the caller's cache keeps
 * it and revalidates it by its SHA-256.
 */
export async function answerLogo(ctx: AppContext, applicationId: string, logo: ApplicationLogo | null, open: OpenLogo): Promise<void> {
  if (!logo) throw notFound(`application ${applicationId} has no logo`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'");
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('ETag', `"${logo.sha256}"`);
  ctx.lastModified = logo.updatedAt;
  // Koa compares the validators only once a 2xx status is set.
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const body = ctx.method === 'HEAD' ? undefined : await openLogo(ctx, applicationId, logo, open);
  ctx.type = logo.contentType;
  ctx.length = logo.size;
  if (body) ctx.body = body;
}

/**
 * The logo's bytes. A request that read the record just before the logo was replaced finds its bytes
 * deleted: a 404 (without the replaced logo's validators), as for no logo; the next request reads the new one.
 */
async function openLogo(ctx: AppContext, applicationId: string, logo: ApplicationLogo, open: OpenLogo): Promise<Readable> {
  try {
    return await open(applicationId, logo);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
    ctx.remove('ETag');
    ctx.remove('Last-Modified');
    throw notFound(`application ${applicationId} has no logo`);
  }
}
