// Before the end-to-end tests: make sure a Chromium exists. Uses the system's if there is one;
// otherwise fetches Playwright's own build (needs internet, e.g. on a laptop).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { findChromium } from './find-chromium.mjs';

const system = findChromium();
if (system && existsSync(system)) {
  process.exit(0);
}
if (system) {
  console.error(`CHROMIUM_PATH is set to ${system}, but there is no file there.`);
  process.exit(1);
}
if (existsSync(chromium.executablePath())) process.exit(0);
console.log("No Chromium found: installing Playwright's Chromium (once).");
execSync('npx playwright install chromium', { stdio: 'inherit' });
