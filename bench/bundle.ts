/**
 * What the browser downloads: the JS and CSS the first page (Cases) loads, and what opening the editor
 * adds, as Chromium actually fetched them (index.html, its preloads and the route's lazy chunks);
 * sizes from the build, raw and gzip (level 9, what a compressing server or CDN would send).
 */
import type { Browser, Page } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { newBenchContext } from './browser';

export interface AssetSet {
  jsGzip: number;
  cssGzip: number;
  jsRaw: number;
  cssRaw: number;
  files: { file: string; raw: number; gzip: number }[];
}

export interface BundleFigures {
  firstPage: AssetSet;
  editorAdds: AssetSet;
  /** First page plus the editor. */
  total: { jsGzip: number; cssGzip: number };
  /** Every JS and CSS file in dist/assets, loaded or not. */
  allAssets: { jsGzip: number; cssGzip: number };
}

function assetSet(distDir: string, files: Iterable<string>): AssetSet {
  const sizeOf = (file: string) => {
    const bytes = readFileSync(join(distDir, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };
  const sized = [...files].filter((f) => ['.js', '.css'].includes(extname(f))).sort().map(sizeOf);
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
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /New product/ }).click();
    await page.getByRole('heading', { level: 1, name: 'New product' }).waitFor();
    await page.waitForLoadState('networkidle');
    const editorAdds = [...fetched].filter((file) => !firstPage.has(file));

    const first = assetSet(distDir, firstPage);
    const editor = assetSet(distDir, editorAdds);
    const all = assetSet(distDir, readdirSync(join(distDir, 'assets')).map((f) => `assets/${f}`));
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
