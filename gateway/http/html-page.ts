import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { FAVICON_PATH } from './favicon';

/** The one stylesheet of the service's pages, inline and allowed by its hash alone. */
const STYLE = 'body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}'
  + 'code{background:#f2f2f2;padding:0 .25rem;border-radius:3px}h1{font-size:1.6rem}';

/**
 * The documentation pages' stylesheet (GET /docs/api): wider, with tables whose cells wrap long
 * words and code so that a phone needs no sideways scrolling.
 */
const DOCUMENT_STYLE = `${STYLE}body{max-width:64rem;margin:2rem auto}`
  + 'table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #bbb;padding:.25rem .4rem;text-align:left;vertical-align:top}'
  + 'main{overflow-wrap:break-word}td code,td a{overflow-wrap:anywhere}h2{margin-top:2.5rem;border-bottom:1px solid #bbb}h3{margin-top:2rem;font-size:1.1rem}'
  + 'a{color:#0645ad}a:focus-visible{outline:3px solid #0645ad;outline-offset:2px}'
  + '@media (max-width:40rem){table{font-size:.85rem}td,th{padding:.2rem}td:last-child{overflow-wrap:anywhere}}';

/** The kinds of page the service serves, each with its one stylesheet. */
export type PageKind = 'page' | 'document';
const STYLES: Record<PageKind, string> = { page: STYLE, document: DOCUMENT_STYLE };

/**
 * Nothing runs and nothing loads from elsewhere: no script at all, the inline style by its hash,
 * images from the service only, no framing, no forms, no base URL.
 */
const pagePolicy = (style: string): string => [
  "default-src 'none'",
  // The service's icon and a vendor's logo, from the service itself.
  "img-src 'self'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const POLICIES: Record<PageKind, string> = { page: pagePolicy(STYLE), document: pagePolicy(DOCUMENT_STYLE) };
export const PAGE_POLICY = POLICIES.page;

/** Text for HTML: the five characters that could open markup, escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page around `body` (already HTML: escape what it quotes), styled as its kind. */
export function htmlPage(title: string, body: string, kind: PageKind = 'page'): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`
    + `<title>${escapeHtml(title)}</title><link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml"><style>${STYLES[kind]}</style></head>\n<body>\n${body}\n</body></html>\n`;
}

/** Answers `page` (made by htmlPage as `kind`) with `status` and the headers every page carries. */
export function answerPage(ctx: Context, status: number, page: string, kind: PageKind = 'page'): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', POLICIES[kind]);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page;
}

/** Whether the client (a browser) prefers HTML to JSON; API clients, curl's `*\/*` and no Accept get JSON. */
export function prefersHtml(ctx: Context): boolean {
  return ctx.accepts('application/json', 'text/html') === 'text/html';
}
