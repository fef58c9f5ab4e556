import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    // A test file per core. Vitest's own default leaves one core to its main process (one worker on two
    // cores), but the files spend much of their time waiting on loopback servers, PostgreSQL and child
    // processes: on two cores, two workers took 0.55 to 0.59 of the time of one (docs/testing.md).
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          testTimeout: 20000,
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'ui',
          testTimeout: 20000,
          include: ['src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/test/setup.ts'],
          css: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          // One PostgreSQL cluster for the run, each test in a database of its own.
          globalSetup: ['server/testing/postgres-cluster.ts'],
          environment: 'node',
          testTimeout: 30000,
        },
      },
    ],
  },
});
