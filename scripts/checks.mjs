// The static checks of `npm test` (lint, typecheck, Prettier's check) side by side rather than one after
// another: each is a single-threaded program, and the lint, the longest (its type-aware rules build their
// own TypeScript program), runs beside the other two, so on two cores the checks take about as long as the
// lint alone. Each check's output is printed whole when it ends, so lines never interleave; the exit code
// is 1 when any check failed.
// Usage: node scripts/checks.mjs
import { spawn } from 'node:child_process';

/** npm scripts of package.json, longest first; the scripts on one line run one after another. */
const LINES = [['lint'], ['typecheck', 'format:check']];

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('error', (error) => {
      output += `${String(error)}\n`;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`> ${script}: ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${seconds} s\n${output}`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(
  LINES.map(async (line) => {
    let ok = true;
    // A later script of a line still runs when an earlier one failed: every problem is reported at once.
    for (const script of line) ok = (await run(script)) && ok;
    return ok;
  }),
);
process.exitCode = passed.every(Boolean) ? 0 : 1;
