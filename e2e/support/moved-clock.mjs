/**
 * A preload for the roles projects' servers (NODE_OPTIONS=--import ./e2e/support/moved-clock.mjs): its
 * Date.now runs ahead by the milliseconds written in the file MOVED_CLOCK_FILE names, so a test can let
 * hours pass for the real server (sessions' idle and absolute time-outs) without waiting, and without any
 * code for tests in the server. The file is looked at on every call (a stat; its content read again only
 * when it changed), so the server sees a move at its very next request.
 */
import { readFileSync, statSync } from 'node:fs';

const file = process.env.MOVED_CLOCK_FILE;
if (file) {
  const realNow = Date.now.bind(Date);
  let seen = '';
  let offset = 0;
  Date.now = () => {
    try {
      const stat = statSync(file, { bigint: true });
      const version = `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
      if (version !== seen) {
        const value = Number(readFileSync(file, 'utf8').trim());
        // A file caught half-written reads as no number: keep the last offset and look again next time.
        if (Number.isFinite(value)) {
          offset = value;
          seen = version;
        }
      }
    } catch {
      offset = 0;
    }
    return realNow() + offset;
  };
}
