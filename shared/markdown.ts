import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/**
 * Release notes (Markdown, the vendor's text) as HTML a client may show: rendered by `marked` (its
 * own instance, so no other module's options leak in), then cut to a strict allow-list by
 * `sanitize-html`. Raw HTML in the notes survives only as far as the list allows: no scripts, styles,
 * event handlers, frames or images; links only to http(s) and mailto.
 */
const markdown = new Marked({ async: false, gfm: true, breaks: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 'code', 'pre', 'blockquote',
    'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  allowedAttributes: { a: ['href', 'title'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.parse(text) as string, ALLOWED);
}
