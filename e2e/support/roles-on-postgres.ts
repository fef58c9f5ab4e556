/**
 * The roles' server again, its own data in PostgreSQL: a throwaway cluster (the tests' helper: initdb in
 * a temporary folder, pg_ctl on a free loopback port, as the `postgres` user under root), a fresh database
 * in it whose address goes to the file ROLES_DATABASE_URL_FILE names (the spec's `npm run people` uses
 * it), then the compiled server given as the argument, with DATABASE_URL set and the moved clock preloaded.
 * On SIGTERM or SIGINT (Playwright's graceful shutdown), the server stops, then the cluster.
 *
 *   node --import tsx e2e/support/roles-on-postgres.ts <server main.js>
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../../server/testing/postgres';

const main = process.argv[2];
const urlFile = process.env.ROLES_DATABASE_URL_FILE;
if (!main || !urlFile) throw new Error('Usage: ROLES_DATABASE_URL_FILE=<file> node --import tsx roles-on-postgres.ts <main.js>');

const cluster = await startPostgres();
const setting = await cluster.freshDatabase();
const url = setting.engine === 'postgres' ? setting.url.href : '';
writeFileSync(urlFile, url);

const clock = fileURLToPath(new URL('./moved-clock.mjs', import.meta.url));
const server = spawn(process.execPath, [main], {
  env: { ...process.env, DATABASE_URL: url, NODE_OPTIONS: `--import ${clock}` },
  stdio: ['ignore', 'inherit', 'inherit'],
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  await cluster.stop();
  process.exit(code);
}
server.once('exit', (code) => void stop(code ?? 1));
process.once('SIGTERM', () => void stop(0));
process.once('SIGINT', () => void stop(0));
