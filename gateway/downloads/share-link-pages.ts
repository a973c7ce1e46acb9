import type { Next } from 'koa';
import type { Config } from '../../shared/config';
import { VENDOR_LOGO_PATH } from '../../shared/contract/vendor';
import { AppError } from '../../shared/errors';
import type { AppContext } from '../http/context';
import { answerPage, escapeHtml, htmlPage, prefersHtml } from '../http/html-page';
import { SHARE_LINK_PATH } from './download-routes';

/** Unknown (404), its sharer's account inactive (403), expired, used up or revoked (410). */
const LINK_UNUSABLE = [403, 404, 410];

/**
 * A share link is opened by people in browsers as often as by programs. Mounted inside the error
 * envelope: when the link cannot be used (expired, used up, revoked, unknown) and the client prefers
 * HTML, it gets a page saying so in words, with the same status; API clients keep the JSON envelope.
 * Only failures take this path, never the download's redirect.
 */
export function shareLinkPages(vendor: Config['vendor']) {
  // Who shared it, as the vendor presents itself: its logo and its name over the page.
  const masthead = [
    vendor.logoFile ? `<p><img src="${VENDOR_LOGO_PATH}" alt="${escapeHtml(vendor.name ?? 'Logo')}" height="48"></p>` : '',
    vendor.name ? `<p><strong>${escapeHtml(vendor.name)}</strong></p>` : '',
  ].filter(Boolean).join('\n');
  return async (ctx: AppContext, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof AppError) || !LINK_UNUSABLE.includes(error.status) || ctx.state.route !== SHARE_LINK_PATH || ctx.method !== 'GET' || !prefersHtml(ctx)) throw error;
      answerPage(ctx, error.status, htmlPage(vendor.name ? `This share link cannot be used · ${vendor.name}` : 'This share link cannot be used', [
        masthead,
        '<h1>This share link cannot be used</h1>',
        `<p>${escapeHtml(sentenceOf(error.message))}</p>`,
        '<p>Ask the person who shared it with you for a new link.</p>',
      ].filter(Boolean).join('\n')));
    }
  };
}

function sentenceOf(message: string): string {
  const sentence = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
