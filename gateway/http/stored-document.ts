import { createHash } from 'node:crypto';
import type { AppContext } from './context';

/**
 * A document answered outside the envelope and kept to be answered again: its bytes with the
 * headers they go with, the ETag made once from the bytes (so every gateway process names the same
 * document alike). A 204 has neither body nor validator.
 */
export interface StoredDocument {
  readonly status: 200 | 204;
  readonly contentType: string;
  readonly body: Buffer;
  readonly length: string;
  readonly etag: string;
}

const EMPTY = Buffer.alloc(0);

/** A document's bytes as they are kept: frozen, with their length and ETag. */
export function storedDocument(contentType: string, body: Buffer): StoredDocument {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return Object.freeze({ status: 200, contentType, body, length: String(body.length), etag });
}

/** No content: what a check answers when there is nothing newer. */
export const NO_CONTENT: StoredDocument = Object.freeze({ status: 204, contentType: '', body: EMPTY, length: '0', etag: '' });

/**
 * Whether an If-None-Match header names the ETag (or is `*`): weak comparison, as RFC 9110 asks of
 * If-None-Match. A client's `Cache-Control: no-cache` does not change it: the validator is checked
 * here, at the origin.
 */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header === etag || header === '*') return true;
  if (header.length < etag.length) return false;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === etag || tag === '*' || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}

/**
 * Writes a stored document on the response: the status and its headers set on Node's response at
 * once (Koa's setters would re-check each), the bytes as the body, which Node sends with the head in
 * one write. A GET or HEAD whose If-None-Match names the ETag gets 304 and no body.
 */
export function writeDocument(ctx: AppContext, document: StoredDocument): void {
  const { res } = ctx;
  if (document.status === 204) {
    ctx.status = 204;
    return;
  }
  res.setHeader('ETag', document.etag);
  const condition = ctx.req.headers['if-none-match'];
  if (condition !== undefined && matchesIfNoneMatch(condition, document.etag)) {
    ctx.status = 304;
    return;
  }
  res.setHeader('Content-Type', document.contentType);
  ctx.status = 200;
  ctx.body = document.body;
}
