import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { FAVICON_PATH } from './favicon';

/** The one stylesheet of the service's pages, inline and allowed by its hash alone. */
const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}'
  + 'code{background:#f2f2f2;padding:0 .25rem;border-radius:3px}h1{font-size:1.6rem}';

/**
 * Nothing runs and nothing loads from elsewhere: no script at all, the inline style by its hash,
 * images from the service only, no framing, no forms, no base URL.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  // The service's icon and a vendor's logo, from the service itself.
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Text for HTML: the five characters that could open markup, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page around `body` (already HTML: escape what it quotes). */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escapeHtml(title)}</title><link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml"><style>${STYLE}</style></head>\n<body>\n${body}\n</body></html>\n`;
}

/** Answers `page` with `status` and the headers every page carries. */
export function answerPage(ctx: Context, status: number, page: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_POLICY);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page;
}

/** Whether the client (a browser) prefers HTML to JSON; API clients, curl's `*\/*` and no Accept get JSON. */
export function prefersHtml(ctx: Context): boolean {
  return ctx.accepts('application/json', 'text/html') === 'text/html';
}
