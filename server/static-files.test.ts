import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticFiles } from './static-files';
import { closeServer, listen, send, tempDir } from './testing/test-helpers';

describe('the built app', () => {
  let dist: string;
  let server: http.Server;
  let port: number;
  const script = 'console.log("the app");'.repeat(20);

  beforeAll(async () => {
    dist = tempDir('site-admin-static-');
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>site-admin</title>');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    server = http.createServer(createStaticFiles(dist));
    port = await listen(server);
  });
  afterAll(async () => {
    await closeServer(server);
    rmSync(dist, { recursive: true, force: true });
  });

  it('sends hashed assets precompressed, cached for a year', async () => {
    const reply = await send(port, { path: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await send(port, { path: '/assets/index-abc123.js' });
    expect(plain.text).toBe(script);
  });

  it('sends other files and the app’s pages to be revalidated, the app for any route', async () => {
    const icon = await send(port, { path: '/favicon.svg' });
    expect([icon.status, icon.headers['cache-control']]).toEqual([200, 'no-cache']);
    for (const path of ['/', '/products/new', '/no/such/page']) {
      const page = await send(port, { path });
      expect([page.status, page.headers['cache-control'], page.text], path).toEqual([
        200,
        'no-cache',
        '<!doctype html><title>site-admin</title>',
      ]);
    }
  });
});

describe('the first screen’s scripts named with the page', () => {
  let dist: string;
  let server: http.Server;
  let port: number;
  let signInExpected = false;
  const screens = {
    signIn: { scripts: ['assets/sign-in-a1.js', 'assets/inputs-b2.js'], styles: ['assets/sign-in-c3.css'] },
    cases: { scripts: ['assets/cases-page-d4.js', 'assets/inputs-b2.js'], styles: [] },
    caseView: { scripts: ['assets/case-result-e5.js', 'assets/cases-page-d4.js', 'assets/inputs-b2.js'], styles: [] },
  };

  beforeAll(async () => {
    dist = tempDir('site-admin-static-links-');
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>site-admin</title>');
    writeFileSync(join(dist, '.vite', 'screens.json'), JSON.stringify(screens));
    server = http.createServer(createStaticFiles(dist, { signInExpected: () => signInExpected }));
    port = await listen(server);
  });
  afterAll(async () => {
    await closeServer(server);
    rmSync(dist, { recursive: true, force: true });
  });

  it('names the sign-in page’s scripts and styles when the browser will be asked to sign in, whatever the address', async () => {
    signInExpected = true;
    for (const path of ['/cases/3/48217', '/products/new']) {
      const page = await send(port, { path });
      expect(page.headers.link, path).toBe(
        '</assets/sign-in-a1.js>; rel=modulepreload; crossorigin, </assets/inputs-b2.js>; rel=modulepreload; crossorigin, ' +
          '</assets/sign-in-c3.css>; rel=preload; as=style; crossorigin',
      );
    }
  });

  it('otherwise names the page the address opens: Cases, with the case view when it names a case', async () => {
    signInExpected = false;
    const cases = await send(port, { path: '/cases' });
    expect(cases.headers.link).toBe(
      '</assets/cases-page-d4.js>; rel=modulepreload; crossorigin, </assets/inputs-b2.js>; rel=modulepreload; crossorigin',
    );
    for (const path of ['/cases/3/48217', '/s/harbour-linen/cases/3/48217']) {
      const page = await send(port, { path });
      expect(page.headers.link, path).toContain('</assets/case-result-e5.js>; rel=modulepreload');
    }
    const other = await send(port, { path: '/products/new' });
    expect(other.headers.link).toBeUndefined();
  });

  it('does not serve the build’s own records: their address gets the app, like any other', async () => {
    const page = await send(port, { path: '/.vite/screens.json' });
    expect([page.status, page.text]).toEqual([200, '<!doctype html><title>site-admin</title>']);
  });
});
