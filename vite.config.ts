import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compressAssets } from './scripts/compress-assets';
import { siteAdminDevServer } from './server/vite-plugin';

export default defineConfig({
  plugins: [react(), siteAdminDevServer(), compressAssets()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  // The import's worker loads its workbook reader only when a workbook is chosen: a split chunk, which
  // only module workers (the `es` format) can load.
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
});
