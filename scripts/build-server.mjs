/**
 * `npm run build`'s second half: the server compiled to JavaScript, so production runs `node` and never a
 * TypeScript loader. esbuild (the compiler tsx and Vite already use) bundles the server's own code and the
 * contract it imports into two files: `main.js` and the sandbox's worker thread, `sandbox-worker.js`,
 * which `main.js` finds beside itself. Packages stay imports of node_modules (better-sqlite3 is native).
 *
 *   node scripts/build-server.mjs [outdir]   (default: dist-server)
 */
import { build } from 'esbuild';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = resolve(process.argv[2] ?? resolve(root, 'dist-server'));

await build({
  absWorkingDir: root,
  entryPoints: { main: 'server/main.ts', 'sandbox-worker': 'server/sandbox/worker.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { '@': resolve(root, 'src') },
  sourcemap: 'linked',
  logLevel: 'warning',
  // The bundle reads as the sources do: names kept in stack traces and logs.
  keepNames: true,
});
console.log(`server built into ${outdir}`);
