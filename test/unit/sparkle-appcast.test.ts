import { expect } from 'chai';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderMarkdown } from '../../shared/markdown';
import { sparkleAppcast } from '../../gateway/updates/sparkle/sparkle-appcast';
import { deltaFromOf } from '../../gateway/updates/sparkle/sparkle-family';
import { file, version } from '../support/records';

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false });
const channel = { title: 'app <1> & "2"', link: 'https://example.com/v1/updates/a/sparkle/stable/appcast.xml?x=1&y=2', description: 'Updates' };

describe("Sparkle's appcast document", () => {
  it('escapes every vendor text and keeps release notes whole in CDATA, whatever they hold', () => {
    const notes = 'Fixes ]]> and <b>bold</b> & "quotes"\u0000\u0007 \uFFFF done';
    const release = version('app_1', '1.0.0-"x"&<y>', { releaseNotes: notes, bundleVersion: '1.0', minimumSystemVersion: '11.0', critical: true });
    const archive = { file: file('f_1', { fileSize: 1234 }), url: 'https://example.com/f?a=1&b="2"', edSignature: 'c2ln' };
    const xml = sparkleAppcast(channel, [{ version: release, archive, deltas: [{ ...archive, deltaFrom: '0.9' }] }], 'windows').toString();
    expect(XMLValidator.validate(xml)).to.equal(true);
    const item = parser.parse(xml).rss.channel.item;
    expect(parser.parse(xml).rss.channel.title).to.equal(channel.title);
    expect(item['sparkle:shortVersionString']).to.equal('1.0.0-"x"&<y>');
    expect(item.description).to.equal(renderMarkdown(notes).replace(/[\u0000\u0007\uFFFF]/g, ''));
    expect(item.description).to.contain(']]&gt;');
    expect(item.enclosure).to.include({ url: archive.url, 'sparkle:os': 'windows', length: '1234', 'sparkle:edSignature': 'c2ln', 'sparkle:version': '1.0' });
    expect(item['sparkle:deltas'].enclosure).to.include({ 'sparkle:deltaFrom': '0.9', url: archive.url });
    expect(item).to.have.property('sparkle:criticalUpdate', '');
  });

  it('is a valid RSS with no item when nothing is offered', () => {
    const xml = sparkleAppcast(channel, [], 'macos').toString();
    expect(XMLValidator.validate(xml)).to.equal(true);
    expect(parser.parse(xml).rss.channel).not.to.have.property('item');
  });

  it('renders Markdown to HTML cut to the allow-list', () => {
    const html = renderMarkdown('# T\n\n<img src=x onerror=alert(1)><iframe src="https://x"></iframe><a href="javascript:alert(1)">j</a> [ok](https://ok.example) <span style="x">s</span>');
    expect(html).to.contain('<h1>T</h1>').and.to.contain('<a href="https://ok.example" rel="noopener noreferrer nofollow">ok</a>');
    expect(html).not.to.match(/<img|<iframe|javascript:|onerror|style=|<span/);
  });

  it("reads the bundle version a delta updates from as generate_appcast names deltas", () => {
    expect(deltaFromOf('MyApp3-1.delta')).to.equal('1');
    expect(deltaFromOf('My-App110-100.5.delta')).to.equal('100.5');
    expect(deltaFromOf('nodash.delta')).to.equal('');
  });
});
