import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';

/*
 * The one renderer of the Markdown vendors write for customers (release notes, licence texts): GFM
 * through `marked`, then an allow-list through `sanitize-html`, since Markdown passes raw HTML
 * through. What comes out is text structure and links only: no script, style, image, frame, form,
 * class, style or event-handler attribute, and links only to http, https and mailto (no
 * `javascript:`, `data:` or protocol-relative URL), each with rel="noopener noreferrer nofollow" so a
 * page it opens can neither reach back nor borrow the service's standing. Images are refused too:
 * the portal loads nothing from another origin.
 */

const markdown = new Marked({ gfm: true, async: false });

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'strong', 'em', 'del', 's', 'code', 'pre', 'kbd',
  'blockquote', 'ul', 'ol', 'li', 'a', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input',
];

const LINK_REL = 'noopener noreferrer nofollow';

const POLICY: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    ol: ['start'],
    th: ['align'],
    td: ['align'],
    // GFM task lists: `- [x] done` renders a disabled checkbox.
    input: ['type', 'checked', 'disabled'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // script, style, textarea, option and noscript lose their content with their tags.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template', 'iframe', 'object', 'svg', 'math'],
  allowedClasses: {},
  allowedStyles: {},
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
    input: (tagName, attribs) => (attribs.type === 'checkbox'
      ? { tagName, attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) } }
      : { tagName: '', attribs: {} }),
  },
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
};

/** Sanitized HTML of a Markdown text, safe to put in a page as it is. */
export function renderMarkdown(text: string): string {
  return sanitizeHtml(markdown.parse(text) as string, POLICY);
}

/**
 * The service's own documents (the API reference page): the same renderer and allow-list, and each
 * heading carries its GitHub anchor as `id`, so that a document's `#...` links work on the page as
 * they do on GitHub.
 */
const DOCUMENT_POLICY: sanitizeHtml.IOptions = {
  ...POLICY,
  allowedAttributes: { ...(POLICY.allowedAttributes as Record<string, string[]>), ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [tag, ['id']])) },
  // Links within the document stay as they are: rel is for links that leave it.
  transformTags: { ...POLICY.transformTags, a: (tagName, attribs) => ({ tagName, attribs: attribs.href?.startsWith('#') ? attribs : { ...attribs, rel: LINK_REL } }) },
};

/** Sanitized HTML of a document the service itself wrote, its headings with their anchors. */
export function renderDocument(text: string): string {
  const anchor = headingSlugs();
  const documentMarkdown = new Marked({ gfm: true, async: false }, {
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        return `<h${depth} id="${anchor(decodeEntities(inner.replace(/<[^>]*>/g, '')))}">${inner}</h${depth}>\n`;
      },
    },
  });
  return sanitizeHtml(documentMarkdown.parse(text) as string, DOCUMENT_POLICY);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decodeEntities = (html: string): string => html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name]);

/** Sanitized HTML of a text that may be absent (release notes). */
export function renderOptionalMarkdown(text: string | null): string | null {
  return text === null ? null : renderMarkdown(text);
}

/**
 * GitHub's anchor of a Markdown heading (what `#...` links to on GitHub and on the service's
 * documentation pages): lower case, every character but letters, digits, `_`, `-` and spaces
 * dropped, spaces as `-`. A repeated heading's anchor is numbered by `headingSlugs`.
 */
export function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Anchors for headings in document order: a repeat gets `-1`, `-2`..., as GitHub numbers them. */
export function headingSlugs(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = headingSlug(heading);
    let anchor = base;
    let count = seen.get(base) ?? 0;
    while (seen.has(anchor)) anchor = `${base}-${++count}`;
    seen.set(base, count);
    seen.set(anchor, 0);
    return anchor;
  };
}
