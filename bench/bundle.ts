/**
 * What the browser downloads: the JS and CSS the first page (Cases) loads, and what opening the editor
 * adds, as Chromium actually fetched them (index.html, its preloads and the route's lazy chunks, until the
 * network is idle); sizes from the build, raw and gzip (level 9, what a compressing server or CDN would
 * send). Each first-page script is listed with its share of the first page and the packages it is made
 * of, read from the build's source maps (the bench builds with hidden source maps: the scripts are the
 * same bytes, and nothing points to the maps).
 */
import { decode } from '@jridgewell/sourcemap-codec';
import type { Browser, Page } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { newBenchContext } from './browser';

/** One package's part of a script: the minified bytes that its source map traces to the package. */
export interface PackageShare {
  /** An npm package (`react-dom`, `@mantine/core`), or a folder of ours (`src/app`, `src/features/cases`). */
  name: string;
  bytes: number;
  /** Of the script's minified bytes, 0–1. */
  share: number;
}

export interface AssetFile {
  file: string;
  raw: number;
  gzip: number;
  /** JS with a source map only: its packages, largest first. */
  packages?: PackageShare[];
}

export interface AssetSet {
  jsGzip: number;
  cssGzip: number;
  jsRaw: number;
  cssRaw: number;
  files: AssetFile[];
}

export interface BundleFigures {
  firstPage: AssetSet;
  editorAdds: AssetSet;
  /** First page plus the editor. */
  total: { jsGzip: number; cssGzip: number };
  /** Every JS and CSS file in dist/assets, loaded or not. */
  allAssets: { jsGzip: number; cssGzip: number };
}

/** `…/node_modules/@mantine/core/esm/…` is `@mantine/core`; `../../src/features/cases/x.tsx` is `src/features/cases`. */
export function packageOf(source: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (dependency?.[1]) return dependency[1];
  const own = /(?:^|\/)src\/(.+)$/.exec(source);
  if (own?.[1]) {
    const folders = own[1].split('/').slice(0, -1);
    return ['src', ...folders.slice(0, folders[0] === 'features' ? 2 : 1)].join('/');
  }
  return source;
}

/**
 * The packages a script is made of: each mapped stretch of the minified text (from one mapping to the
 * next on its line) counts for the package of its source. Minified bytes, not gzip: gzip cannot be split
 * by package, and the shares differ little.
 */
function packagesOf(path: string, code: string): PackageShare[] | undefined {
  if (!existsSync(`${path}.map`)) return undefined;
  const map = JSON.parse(readFileSync(`${path}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lines = code.split('\n');
  const bytes = new Map<string, number>();
  decode(map.mappings).forEach((segments, lineIndex) => {
    const lineLength = lines[lineIndex]?.length ?? 0;
    segments.forEach((segment, i) => {
      const end = segments[i + 1]?.[0] ?? lineLength;
      const source = segment.length > 1 ? map.sources[segment[1] ?? -1] : undefined;
      const name = source === undefined ? '(no source)' : packageOf(source);
      bytes.set(name, (bytes.get(name) ?? 0) + end - segment[0]);
    });
  });
  return [...bytes].map(([name, n]) => ({ name, bytes: n, share: n / Math.max(1, code.length) })).sort((a, b) => b.bytes - a.bytes);
}

export function assetSet(distDir: string, files: Iterable<string>): AssetSet {
  const sizeOf = (file: string): AssetFile => {
    const path = join(distDir, file);
    const bytes = readFileSync(path);
    const sized: AssetFile = { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    const packages = extname(file) === '.js' ? packagesOf(path, bytes.toString('utf8')) : undefined;
    return packages ? { ...sized, packages } : sized;
  };
  const sized = [...files]
    .filter((f) => ['.js', '.css'].includes(extname(f)))
    .sort()
    .map(sizeOf);
  const sum = (ext: string, key: 'raw' | 'gzip') => sized.filter((f) => extname(f.file) === ext).reduce((n, f) => n + f[key], 0);
  return { jsGzip: sum('.js', 'gzip'), cssGzip: sum('.css', 'gzip'), jsRaw: sum('.js', 'raw'), cssRaw: sum('.css', 'raw'), files: sized };
}

/** Collects the /assets/ files the page fetches from now on. */
function recordAssets(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/assets/')) seen.add(path.slice(1));
  });
  return seen;
}

export async function runBundleBenchmark(browser: Browser, origin: string, distDir: string): Promise<BundleFigures> {
  const context = await newBenchContext(browser, origin);
  try {
    const page = await context.newPage();
    const fetched = recordAssets(page);
    await page.goto('/cases', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
    const firstPage = new Set(fetched);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: /New product/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'New product' }).waitFor();
    await page.waitForLoadState('networkidle');
    const editorAdds = [...fetched].filter((file) => !firstPage.has(file));

    const first = assetSet(distDir, firstPage);
    const editor = assetSet(distDir, editorAdds);
    const all = assetSet(
      distDir,
      readdirSync(join(distDir, 'assets')).map((f) => `assets/${f}`),
    );
    return {
      firstPage: first,
      editorAdds: editor,
      total: { jsGzip: first.jsGzip + editor.jsGzip, cssGzip: first.cssGzip + editor.cssGzip },
      allAssets: { jsGzip: all.jsGzip, cssGzip: all.cssGzip },
    };
  } finally {
    await context.close();
  }
}
