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
