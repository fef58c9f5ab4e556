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
  server: { host: '127.0.0.1' },
});
