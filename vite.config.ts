import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compressAssets } from './scripts/compress-assets';
import { screenChunks } from './scripts/screen-chunks';
import { siteAdminDevServer } from './server/vite-plugin';

export default defineConfig({
  plugins: [
    react(),
    siteAdminDevServer(),
    // The first screens the server names with the page (server/static-files.ts).
    screenChunks({
      signIn: 'src/app/sign-in-page.tsx',
      cases: 'src/features/cases/cases-page.tsx',
      caseView: 'src/features/cases/case-result.tsx',
    }),
    compressAssets(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry loads before anything renders goes in one chunk. Split by default into a dozen
          // small shared chunks (what a later page also imports), it cost 5 KB more gzip than the same code
          // in one file and, on a slow network, a queue behind the browser's six connections to a host.
          // The pages' own chunks stay split, loaded when opened.
          groups: [
            { name: 'app', tags: ['$initial'], priority: 50 },
            { name: 'inputs', test: /@mantine[\\/]core[\\/]esm[\\/]components[\\/](Input|InputBase|TextInput)[\\/]/, priority: 40 },
            { name: 'sign-in', test: /src[\\/]app[\\/](sign-in-page|single-sign-on)\.|PasswordInput/, priority: 30 },
            {
              name: 'cases-page',
              test: /src[\\/]features[\\/]cases[\\/](cases-page|lookup-form|recent-lookups|error-panel|case-query|case-identity|reveal-invisible|use-recent-lookups|warm-date-formats|parse-case-link)/,
              priority: 20,
            },
          ],
        },
      },
    },
  },
  // The import's worker loads its workbook reader only when a workbook is chosen: a split chunk, which
  // only module workers (the `es` format) can load.
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
});
