// Where to find a Chromium for the end-to-end tests: CHROMIUM_PATH, then the system's Chromium
// (Debian's package), else undefined so that Playwright uses its own download.
import { existsSync } from 'node:fs';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'];

/** @returns {string | undefined} */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return CANDIDATES.find((path) => existsSync(path));
}
