import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/** Its own instance: options set here never leak into another user of the library. */
const markdown = new Marked({ async: false, gfm: true });

/**
 * What rendered notes may hold: text formatting, lists, code, quotes, tables and links (http, https,
 * mailto), nothing that runs or loads (no script, style, iframe, img, event attribute or inline style).
 */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'strong', 'em', 'del', 'code', 'pre', 'blockquote',
    'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  allowedAttributes: { a: ['href', 'title', 'rel'], ol: ['start'], th: ['align'], td: ['align'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/** Release notes written in Markdown as HTML safe to put in a page or an update client's window. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.parse(text) as string, ALLOWED);
}
