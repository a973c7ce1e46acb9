import { expect } from 'chai';
import { headingSlug, renderDocument, renderMarkdown } from '../../shared/markdown';

describe('Markdown rendered for customers', () => {
  it('renders GFM structure: headings, emphasis, lists, code, tables, task lists', () => {
    expect(renderMarkdown('# Title\n\n*new* **fast** ~~old~~ `code`')).to.equal('<h1>Title</h1>\n<p><em>new</em> <strong>fast</strong> <del>old</del> <code>code</code></p>\n');
    expect(renderMarkdown('- one\n- two')).to.equal('<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n');
    expect(renderMarkdown('| a | b |\n|---|--:|\n| 1 | 2 |')).to.include('<td align="right">2</td>');
    expect(renderMarkdown('- [x] done')).to.include('<input type="checkbox" disabled checked />');
  });

  it('gives every link rel="noopener noreferrer nofollow" and keeps http, https and mailto links', () => {
    expect(renderMarkdown('[site](https://example.com "Home")')).to.equal('<p><a href="https://example.com" title="Home" rel="noopener noreferrer nofollow">site</a></p>\n');
    expect(renderMarkdown('<a href="http://example.com" rel="opener" target="_blank">x</a>')).to.equal('<p><a href="http://example.com" rel="noopener noreferrer nofollow">x</a></p>\n');
    expect(renderMarkdown('[mail](mailto:help@example.com)')).to.include('href="mailto:help@example.com"');
  });

  it('strips scripts, styles, event handlers, frames, forms and images, with their content where it is code', () => {
    const hostile = [
      '<script>alert(1)</script>',
      '<style>body{display:none}</style>',
      '<img src="x" onerror="alert(1)">',
      '![pixel](https://tracker.example/p.gif)',
      '<p onclick="alert(1)" style="color:red" class="x">text</p>',
      '<iframe src="https://evil.example"></iframe>',
      '<svg><script>alert(1)</script></svg>',
      '<form action="https://evil.example"><input name="k"></form>',
      '<object data="x.swf"></object>',
      '<details open ontoggle="alert(1)">t</details>',
    ].join('\n\n');
    const html = renderMarkdown(hostile);
    for (const forbidden of ['<script', 'alert', '<style', 'display:none', 'onerror', 'onclick', 'ontoggle', '<img', 'tracker', '<iframe', '<svg', '<form', '<object', 'style=', 'class=', 'name="k"']) {
      expect(html, forbidden).not.to.include(forbidden);
    }
    expect(html).to.include('<p>text</p>');
  });

  it('drops links whose scheme could run code or embed data, in any spelling', () => {
    for (const href of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java&#x09;script:alert(1)', 'vbscript:x', 'data:text/html,<script>alert(1)</script>', '//evil.example/x']) {
      const fromMarkdown = renderMarkdown(`[x](${href})`);
      const fromHtml = renderMarkdown(`<a href="${href}">x</a>`);
      for (const html of [fromMarkdown, fromHtml]) {
        expect(html, href).not.to.match(/href=/);
        expect(html, href).not.to.match(/javascript|vbscript|data:|evil/i);
      }
    }
  });

  it('escapes text that looks like markup', () => {
    expect(renderMarkdown('1 < 2 & "quotes"')).to.equal('<p>1 &lt; 2 &amp; "quotes"</p>\n');
    expect(renderMarkdown('```\n<b>not bold</b>\n```')).to.equal('<pre><code>&lt;b&gt;not bold&lt;/b&gt;\n</code></pre>\n');
  });
});

describe("Markdown of the service's own documents", () => {
  it('gives each heading its GitHub anchor as id, a repeated one numbered', () => {
    expect(headingSlug('GET /v1/openapi.json')).to.equal('get-v1openapijson');
    expect(headingSlug("The `bds` CLI: a whole release")).to.equal('the-bds-cli-a-whole-release');
    const html = renderDocument('# A & B\n\n## Step `one`\n\n## Step one');
    expect(html).to.include('<h1 id="a--b">A &amp; B</h1>');
    expect(html).to.include('<h2 id="step-one">Step <code>one</code></h2>');
    expect(html).to.include('<h2 id="step-one-1">Step one</h2>');
  });

  it('keeps links within the document as they are and treats others as the customers\' renderer does', () => {
    expect(renderDocument('[down](#step-one)')).to.equal('<p><a href="#step-one">down</a></p>\n');
    expect(renderDocument('[out](https://example.com)')).to.include('rel="noopener noreferrer nofollow"');
    expect(renderDocument('# t <script>alert(1)</script>\n\n<img src="https://example.com/x.png" onerror="alert(1)">')).not.to.match(/script|img|onerror/);
  });
});
