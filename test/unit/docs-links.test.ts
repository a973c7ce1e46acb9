import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { headingSlugs } from '../../shared/markdown';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** The documents a reader follows links between: README.md, ARCHITECTURE.md, bench/*.md and docs/**. */
export function documentFiles(root = ROOT): string[] {
  const docs = (directory: string): string[] => fs.readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return docs(relative);
    return entry.name.endsWith('.md') ? [relative] : [];
  });
  const bench = fs.readdirSync(path.join(root, 'bench')).filter((name) => name.endsWith('.md')).map((name) => `bench/${name}`);
  return ['README.md', 'ARCHITECTURE.md', ...bench, ...docs('docs')];
}

/** Every link (and image) target of a Markdown text, as written, code spans and blocks left out. */
function linkTargets(text: string): string[] {
  const found: string[] = [];
  marked.walkTokens(marked.lexer(text), (token: Token) => {
    if (token.type === 'link' || token.type === 'image') found.push((token as Tokens.Link).href);
  });
  return found;
}

/** The anchors of a Markdown text's headings, as GitHub makes them. */
function anchorsOf(text: string): Set<string> {
  const anchor = headingSlugs();
  const anchors = new Set<string>();
  marked.walkTokens(marked.lexer(text), (token: Token) => {
    if (token.type !== 'heading') return;
    // The heading's text as shown: link targets left out (code marks and emphasis are punctuation the anchor drops).
    const shown = (token as Tokens.Heading).text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    anchors.add(anchor(shown));
  });
  return anchors;
}

/** The relative links of `files` (under `root`) that lead nowhere: no such file, or no such heading in it. */
export function deadLinks(files: readonly string[], root = ROOT): string[] {
  const texts = new Map<string, string>();
  const read = (file: string): string | undefined => {
    if (!texts.has(file)) {
      try {
        texts.set(file, fs.readFileSync(path.join(root, file), 'utf8'));
      } catch {
        return undefined;
      }
    }
    return texts.get(file);
  };
  const anchors = new Map<string, Set<string>>();
  const anchorsIn = (file: string): Set<string> => {
    if (!anchors.has(file)) anchors.set(file, anchorsOf(read(file) ?? ''));
    return anchors.get(file) as Set<string>;
  };
  const dead: string[] = [];
  for (const file of files) {
    for (const target of linkTargets(read(file) ?? '')) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // another site: not ours to check here
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const linked = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
      if (linked.startsWith('..')) {
        dead.push(`${file}: ${target} leaves the repository`);
        continue;
      }
      const full = path.join(root, linked);
      if (!fs.existsSync(full)) {
        dead.push(`${file}: ${target}: no file ${linked}`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (!linked.endsWith('.md')) {
        dead.push(`${file}: ${target}: an anchor into a file that is not Markdown`);
        continue;
      }
      if (!anchorsIn(linked).has(anchor)) dead.push(`${file}: ${target}: no heading with anchor #${anchor} in ${linked}`);
    }
  }
  return dead;
}

describe('links between the documents', () => {
  it('every relative link of README.md, ARCHITECTURE.md, bench/ and docs/ leads to a file and a heading that exist', () => {
    const files = documentFiles();
    expect(files).to.include.members(['bench/README.md', 'bench/history.md', 'docs/api.md', 'docs/cli.md']);
    expect(deadLinks(files)).to.deep.equal([]);
  });

  it('finds a planted dead file link and a planted dead anchor', () => {
    const root = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'bds-links-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'README.md'), '# Top\n\n## The `bds` CLI\n\n[ok](#the-bds-cli) [ok too](docs/a.md#a--b) [gone](docs/missing.md) [wrong](docs/a.md#nowhere) `[code](nowhere.md)`\n');
      fs.writeFileSync(path.join(root, 'docs', 'a.md'), '# A & B\n\n[back](../README.md#top) [self](#a--b) [up and out](../../x.md)\n\n```\n[in a block](gone.md)\n```\n');
      expect(deadLinks(['README.md', 'docs/a.md'], root)).to.deep.equal([
        'README.md: docs/missing.md: no file docs/missing.md',
        'README.md: docs/a.md#nowhere: no heading with anchor #nowhere in docs/a.md',
        'docs/a.md: ../../x.md leaves the repository',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
