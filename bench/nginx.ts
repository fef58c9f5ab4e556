/**
 * nginx as the peer of site-admin's proxy: a header-injecting reverse proxy in front of the same sandbox.
 * Its config, pid, error log and temp folders live in a private temporary folder; it runs in the
 * foreground (`daemon off`), listens on 127.0.0.1 only and is stopped with the bench's other children.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, SANDBOX_AUTH, spawnTracked, trackTempDir, waitForOk, type RunningProcess } from './server-process';

const CANDIDATES = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx', '/usr/bin/nginx'];

/** The nginx binary, or undefined when none is installed (Debian: `apt-get install nginx-light`). */
export function findNginx(): string | undefined {
  for (const candidate of CANDIDATES) if (candidate && existsSync(candidate)) return candidate;
  try {
    const found = execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim();
    return found || undefined;
  } catch {
    return undefined;
  }
}

/** The version line nginx prints (`nginx version: nginx/1.22.1`), for the report. */
export function nginxVersion(binary: string): string {
  // nginx -v writes its version to stderr.
  const { stdout, stderr } = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return `${stdout}${stderr}`.trim().replace(/^nginx version: /, '') || 'unknown';
}

/**
 * One worker process: the same single thread site-admin's proxy runs on. Only the two operations of the
 * spec are passed on, as site-admin's allowlist does (a case lookup by GET, a product create by POST;
 * anything else is answered 404 or 403 by nginx itself). Keep-alive to the upstream (`keepalive` with
 * HTTP/1.1 and an empty Connection header), x-api-key and x-site-id set as site-admin sets them, Host a
 * loopback name (the sandbox answers no other).
 */
function config(dir: string, port: number, upstreamPort: number): string {
  const asRoot = process.getuid?.() === 0;
  return `# Written by site-admin's bench; thrown away when it ends.
daemon off;
master_process on;
worker_processes 1;
${asRoot ? 'user root;\n' : ''}pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'client_body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  upstream sandbox {
    server 127.0.0.1:${upstreamPort};
    keepalive 128;
  }
  server {
    listen 127.0.0.1:${port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host 127.0.0.1:${upstreamPort};
    proxy_set_header x-api-key ${SANDBOX_AUTH['x-api-key']};
    proxy_set_header x-site-id ${SANDBOX_AUTH['x-site-id']};
    location ~ ^/api/site/v2/forms/[^/]+/cases/[^/]+$ {
      limit_except GET { deny all; }
      proxy_pass http://sandbox;
    }
    location = /api/site/v2/ecommerce/products/create {
      limit_except POST { deny all; }
      proxy_pass http://sandbox;
    }
    location / {
      return 404;
    }
  }
}
`;
}

/** Starts nginx in front of the sandbox at upstreamPort; resolves once it serves a lookup. */
export async function startNginx(binary: string, upstreamPort: number, probePath: string): Promise<RunningProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'site-admin-bench-nginx-'));
  trackTempDir(dir);
  chmodSync(dir, 0o755);
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, upstreamPort));
  const started = performance.now();
  const proc = spawnTracked(binary, ['-p', dir, '-c', file], { PATH: process.env.PATH });
  const origin = `http://127.0.0.1:${port}`;
  await waitForOk(`${origin}${probePath}`, proc.child, proc.stderr, started);
  return { origin, cpuMs: proc.cpuMs, stop: proc.stop };
}
