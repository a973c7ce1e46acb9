import { expect } from 'chai';
import { renderMarkdown } from '../../shared/markdown';

describe('release notes rendered from Markdown', () => {
  it('keep formatting, lists, code and web links', () => {
    const html = renderMarkdown('# Title\n\n- **bold** and _em_\n- `code`\n\n[site](https://example.com) <mailto:a@example.com>');
    expect(html).to.include('<h1>Title</h1>').and.include('<strong>bold</strong>').and.include('<em>em</em>').and.include('<code>code</code>');
    expect(html).to.include('<a href="https://example.com" rel="noopener noreferrer">site</a>');
    expect(html).to.include('href="mailto:a@example.com"');
  });

  it('drop whatever runs or loads: scripts, images, frames, styles, event attributes, javascript: and data: links', () => {
    const html = renderMarkdown([
      '<script>alert(1)</script>', '', '<img src=x onerror=alert(1)>', '', '<iframe src="https://evil.example"></iframe>', '',
      '<p style="color:red" onclick="alert(1)">styled</p>', '', '[js](javascript:alert(1)) [data](data:text/html,x) [rel](//evil.example)',
    ].join('\n'));
    expect(html).not.to.match(/<script|<img|<iframe|onerror|onclick|style=|javascript:|data:text|\/\/evil/i);
    expect(html).to.include('styled');
  });
});
