// Waits until a URL answers 200, then exits 0; exits 1 after the time limit. For a command that must
// start only once another server is up (the end-to-end tests' second server serves the first one's build).
// Usage: node scripts/wait-for-url.mjs <url> [timeout-ms]
const [url, limit = '180000'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node scripts/wait-for-url.mjs <url> [timeout-ms]');
  process.exit(2);
}
const deadline = Date.now() + Number(limit);
for (;;) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await res.body?.cancel();
    if (res.status === 200) process.exit(0);
  } catch {
    // Not listening yet.
  }
  if (Date.now() > deadline) {
    console.error(`${url} did not answer 200 within ${limit} ms.`);
    process.exit(1);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
