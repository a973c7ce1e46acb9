import { notFound } from '../../shared/errors';
import type { ApplicationLogo } from '../../shared/store/models';
import type { AppContext } from '../http/context';
import type { LogoService } from './logo-service';

/**
 * Answers an application's logo: the image, or 304 when the request's validator matches, or 404 when
 * it has none. The image is never sniffed as another type nor run as a document (an image opened on
 * its own, or a file that tricked the signature check, cannot script), and the caller's cache keeps
 * it and revalidates it by its SHA-256.
 */
export async function answerLogo(ctx: AppContext, applicationId: string, logo: ApplicationLogo | null, logos: LogoService): Promise<void> {
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
  ctx.type = logo.contentType;
  ctx.length = logo.size;
  if (ctx.method !== 'HEAD') ctx.body = await logos.open(applicationId, logo);
}
