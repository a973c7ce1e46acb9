// Bundles the browser apps (the vendor's console, the customers' portal) with esbuild into
// dist/public/<app>/: one script and one stylesheet per app, named by their content's hash so the
// gateway can let browsers keep them for a year, and an index.html that loads them. Type checking is
// tsc's job (web/tsconfig.json); esbuild only strips the types. Prints what a first visit loads, gzipped.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outRoot = path.join(root, 'dist', 'public');
const APPS = [
  { name: 'console', title: 'Console' },
  { name: 'portal', title: 'Downloads' },
];

for (const app of APPS) {
  const entry = path.join(root, 'web', app.name, 'main.tsx');
  if (!fs.existsSync(entry)) continue;
  const outdir = path.join(outRoot, app.name);
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: { app: entry },
    bundle: true,
    format: 'esm',
    target: ['chrome109', 'firefox115', 'safari16'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    // Split: a page's heavy code (the statistics chart) is fetched by a dynamic import when first drawn.
    splitting: true,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    outdir,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const relative = (file) => path.relative(outdir, path.join(root, file));
  const [entryFile, entryOutput] = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint);
  const script = relative(entryFile);
  const style = entryOutput.cssBundle ? relative(entryOutput.cssBundle) : undefined;
  // A first visit loads the entry and the chunks it imports statically; dynamically imported ones wait.
  const eager = entryOutput.imports.filter((imported) => imported.kind === 'import-statement').map((imported) => relative(imported.path));
  const base = `/${app.name}/assets/`;
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${app.title}</title>`,
    // The service's icon (gateway/http/favicon.ts).
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
    style ? `<link rel="stylesheet" href="${base}${style}">` : '',
    `<script type="module" src="${base}${script}"></script>`,
    '</head><body><div id="root"></div>',
    `<noscript>This page needs JavaScript.</noscript>`,
    '</body></html>',
    '',
  ].filter(Boolean).join('\n');
  fs.writeFileSync(path.join(outdir, 'index.html'), html);
  const firstVisit = [script, ...eager, style].filter(Boolean).map((file) => fs.readFileSync(path.join(outdir, file)));
  firstVisit.push(Buffer.from(html));
  const gzipped = firstVisit.reduce((sum, bytes) => sum + zlib.gzipSync(bytes, { level: 9 }).length, 0);
  console.log(`build: web/${app.name}: first visit loads ${(gzipped / 1024).toFixed(1)} KiB gzipped`);
  fs.writeFileSync(path.join(outdir, 'first-visit.json'), JSON.stringify({ gzippedBytes: gzipped }) + '\n');
}
