/**
 * `npm run bench:web-bundle -- [--dist apps/web/dist] [--budget-kb 250]`
 *
 * The JavaScript a first page load fetches, gzipped: the entry script and the modulepreload links of the built
 * index.html, plus whatever those files import statically (a static import is fetched before the page runs, whether
 * or not Vite wrote a preload link for it; dynamic imports are not followed, they load on demand). Prints each file
 * and the total, and exits 1 above the budget so CI can hold the line. Needs `npm run build -w @conversa/web` first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BundleFile {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** Asset paths of `<script type="module" src>` and `<link rel="modulepreload" href>` tags, in document order. */
export function entryScripts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isModuleScript = /^<script/i.test(tag) && /\btype=["']?module/i.test(tag);
    const isPreload = /^<link/i.test(tag) && /\brel=["']?modulepreload/i.test(tag);
    const url = /\b(?:src|href)=["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url && !/^(https?:)?\/\//.test(url)) found.push(url);
  }
  return found;
}

/** Relative specifiers of a built chunk's static imports (`import ... from "./x.js"`, `import "./x.js"`). */
export function staticImports(code: string): string[] {
  const specs = new Set<string>();
  // Minified output writes `import{a as b}from"./x.js"` as well as `import "./x.js"`; `import(` is dynamic.
  for (const m of code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g)) {
    specs.add(m[1]!);
  }
  for (const m of code.matchAll(/\bexport\s*[\w*{}\s,$]*?\s*from\s*["'](\.{1,2}\/[^"']+)["']/g)) specs.add(m[1]!);
  return [...specs];
}

export function firstLoadFiles(dist: string): BundleFile[] {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const queue = entryScripts(html).map((url) => path.join(dist, url.replace(/^\//, '')));
  const seen = new Set<string>();
  const files: BundleFile[] = [];
  while (queue.length > 0) {
    const abs = path.normalize(queue.shift()!);
    if (seen.has(abs)) continue;
    seen.add(abs);
    const code = fs.readFileSync(abs);
    files.push({
      file: path.relative(dist, abs),
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
    });
    for (const spec of staticImports(code.toString('utf8'))) queue.push(path.resolve(path.dirname(abs), spec));
  }
  return files;
}

// Decimal kilobytes, as build tools and browsers' network panels print them.
const kb = (bytes: number) => (bytes / 1000).toFixed(1).padStart(7);

function main() {
  const { values } = parseArgs({
    options: { dist: { type: 'string' }, 'budget-kb': { type: 'string', default: '250' } },
  });
  const dist = path.resolve(ROOT, values.dist ?? 'apps/web/dist');
  const budget = Number(values['budget-kb']) * 1000;
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.error(`${dist}/index.html not found: run \`npm run build -w @conversa/web\` first`);
    process.exit(2);
  }
  const files = firstLoadFiles(dist).sort((a, b) => b.gzipBytes - a.gzipBytes);
  const total = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  const raw = files.reduce((sum, f) => sum + f.bytes, 0);
  console.log('   gzip KB     raw KB  file');
  for (const f of files) console.log(`${kb(f.gzipBytes)}   ${kb(f.bytes)}   ${f.file}`);
  console.log(`${kb(total)}   ${kb(raw)}   total (${files.length} files), budget ${kb(budget).trim()} KB gzip`);
  if (total > budget) {
    console.error(`first load is ${((total - budget) / 1000).toFixed(1)} KB over the budget`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
