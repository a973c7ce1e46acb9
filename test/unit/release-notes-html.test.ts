import { expect } from 'chai';
import { presentVersion } from '../../shared/contract/versions';
import { version } from '../support/records';

describe('release notes as the service sends them rendered (releaseNotesHtml)', () => {
  const html = (releaseNotes: string | null) => presentVersion({ ...version('app_1', '1.0.0', { releaseNotes }), files: [] }, null).releaseNotesHtml;

  it('renders Markdown: headings, lists, emphasis, code and links with rel="noopener noreferrer nofollow"', () => {
    expect(html('## Fixes\n\n- **Crash** on `start`\n- [site](https://example.com)')).to.equal(
      '<h2>Fixes</h2>\n<ul>\n<li><strong>Crash</strong> on <code>start</code></li>\n<li><a href="https://example.com" rel="noopener noreferrer nofollow">site</a></li>\n</ul>\n');
  });

  it('keeps nothing that runs or loads: scripts, styles, frames, images, event handlers, javascript: URLs', () => {
    const rendered = html([
      '<script>alert(1)</script><style>body{}</style><iframe src="https://x.test"></iframe>',
      '<img src="https://x.test/a.png" onerror="alert(1)"> <b onclick="alert(1)">bold</b>',
      '[click](javascript:alert(1)) <a href="data:text/html,x">data</a> <a href="//x.test">relative</a>',
    ].join('\n\n')) as string;
    expect(rendered).not.to.match(/<script|<style|<iframe|<img|onerror|onclick|javascript:|data:|href="\/\//i);
    expect(rendered).to.include('bold').and.include('click');
  });

  it('is null without notes', () => {
    expect(html(null)).to.equal(null);
  });
});
