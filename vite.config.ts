import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { siteAdminDevServer } from './server/vite-plugin';

export default defineConfig({
  plugins: [react(), siteAdminDevServer()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
  },
  server: { host: '127.0.0.1' },
});
