/**
 * The API key must be in no built file. Builds the app with recognisable keys in every setting the
 * server reads, then searches every file of the build for them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const outDir = mkdtempSync(join(tmpdir(), 'site-admin-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

it('leaves the platform key and the sandbox key out of every built file', async () => {
  const secrets = {
    SITE_API_KEY: `platform-key-${crypto.randomUUID()}`,
    SANDBOX_API_KEY: `sandbox-key-${crypto.randomUUID()}`,
    ADMIN_PASSWORD: `admin-password-${crypto.randomUUID()}`,
  };
  const saved = { ...process.env };
  Object.assign(process.env, secrets, { SITE_API_BASE_URL: 'https://platform.example/api/site/v2', SITE_ID: '4242' });
  try {
    const { build } = await import('vite');
    await build({ root: process.cwd(), logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env = saved;
  }
  const files = filesUnder(outDir);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const secret of Object.values(secrets)) expect(text, file).not.toContain(secret);
    expect(text, file).not.toContain('sandbox-local-key');
  }
}, 180_000);
