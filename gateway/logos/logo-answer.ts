import type { ApplicationLogo } from '../../shared/store/models';
import type { AppContext } from '../http/context';

/**
 * The headers of a logo answer (and of its 304): the image is never sniffed as another type nor run
 * as a document (an image opened on its own, or a file that tricked the signature check, cannot
 * script), and each customer's cache keeps it and revalidates it by its SHA-256.
 */
export function answerLogoHeaders(ctx: AppContext, logo: ApplicationLogo): void {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', "default-src 'none'");
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.set('ETag', `"${logo.sha256}"`);
  ctx.lastModified = logo.updatedAt;
}
