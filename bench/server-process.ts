/**
 * The app as users run it: `vite build`, and the server compiled (`scripts/build-server.mjs`) and run by
 * `node` on the sandbox, as a child process in its own process group (killing the group stops whatever it
 * started). Every child started here is stopped on exit, on failure and on Ctrl+C.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sleep } from './stats';

const ROOT = process.cwd();
const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** A temporary folder removed with the bench's children, whatever way the bench ends. */
export function trackTempDir(dir: string) {
  tempDirs.add(dir);
}

/** Synchronous, so it also runs from process.on('exit'). */
export function killAllChildren() {
  for (const child of children) killGroup(child, 'SIGKILL');
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

let hooksInstalled = false;
export function installCleanupHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllChildren();
      process.exit(130);
    });
  }
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      children.delete(child);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`));
    });
  });
}

/**
 * Builds into a private folder, not dist/: other work on this checkout may rebuild dist/ meanwhile, which
 * would delete the hashed assets the running server's index.html points to.
 */
export async function buildApp(): Promise<{ distDir: string; ms: number }> {
  const distDir = mkdtempSync(join(tmpdir(), 'site-admin-bench-dist-'));
  tempDirs.add(distDir);
  const started = performance.now();
  // Hidden source maps: the scripts are the same bytes as without them, and the bundle bench reads the
  // maps to tell which packages each script is made of.
  await run(BIN('vite'), ['build', '--outDir', distDir, '--emptyOutDir', '--sourcemap', 'hidden', '--logLevel', 'warn']);
  return { distDir, ms: performance.now() - started };
}

let serverBuild: Promise<string> | null = null;
/**
 * The server compiled once per bench run, into a folder of its own inside node_modules/.cache (so the
 * bundle's imports of packages resolve as they do from dist-server/).
 */
export function buildServer(): Promise<string> {
  serverBuild ??= (async () => {
    const dir = join(ROOT, 'node_modules', '.cache', 'site-admin-bench', `${process.pid}-${Date.now()}`);
    tempDirs.add(dir);
    await run(process.execPath, [join(ROOT, 'scripts', 'build-server.mjs'), dir]);
    // The bench's own entry beside it (the server without the activity record's step), built the same way.
    await build({
      absWorkingDir: ROOT,
      entryPoints: { 'main-without-record': 'bench/server-without-record.ts' },
      outdir: dir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      alias: { '@': join(ROOT, 'src') },
      logLevel: 'warning',
      keepNames: true,
    });
    return join(dir, 'main.js');
  })();
  return serverBuild;
}

/** Resolves with the status of GET url, or null when nothing answers (yet). */
function statusOf(url: string, headers: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 1000, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.once('error', () => resolve(null));
    req.once('timeout', () => {
      req.destroy();
      resolve(null);
    });
  });
}

export interface RunningServer extends RunningProcess {
  sandboxOrigin: string;
  /** The server's resident memory now (its one process: the sandbox, if any, is a thread of it), KB. */
  rssKB(): number | undefined;
  /** From spawn to the first 200 from /api/health, in ms. */
  startupMs: number;
  stop(): Promise<void>;
}

/** Polls GET url until it answers 200; throws with the child's stderr if it exits or takes over 60 s. */
export async function waitForOk(
  url: string,
  child: ChildProcess,
  stderr: () => string,
  started: number,
  headers: Record<string, string> = {},
) {
  // Poll often: a start-up figure is only as fine as the polling interval.
  while ((await statusOf(url, headers)) !== 200) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}:\n${stderr().slice(-4000)}`);
    if (performance.now() - started > 60_000) throw new Error(`${url} did not answer 200 within 60 s:\n${stderr().slice(-4000)}`);
    await sleep(5);
  }
}

/** Spawns a long-running child in its own process group, stopped with the rest on exit. */
export function spawnTracked(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    children.delete(child);
  };
  return { child, stderr: () => stderr, stop, cpuMs: () => groupCpuMs(child.pid), rssKB: () => rssKB(child.pid) };
}

/** The sandbox's default credentials, as the bench sends them. */
export const SANDBOX_AUTH = { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' } as const;

export interface RunningProcess {
  origin: string;
  /** CPU time (user + system) used so far by every process of its group, in ms; undefined off Linux. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

const CLOCK_TICKS_PER_SECOND = 100;

/**
 * CPU time of every process in a process group (a spawned child and whatever it started: tsx's node,
 * nginx's worker), from /proc, in ms. A figure that a shared machine's load barely moves, unlike throughput.
 */
export function groupCpuMs(groupId: number | undefined): number | undefined {
  if (groupId === undefined || process.platform !== 'linux') return undefined;
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // After "pid (name) ": state, ppid, pgrp, ..., utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== groupId) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1000;
}

/** Resident memory of one process, in KB, from /proc; undefined off Linux or once it is gone. */
export function rssKB(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** `npm run sandbox` on its own (node + tsx, no wrapper), on a fresh database: the platform of the peer bench. */
/** The settings of a compiled server (its app in `distDir`) whose one site is the standalone `sandbox`. */
export function onSandbox(distDir: string, sandbox: RunningProcess): Record<string, string> {
  return {
    DIST_DIR: distDir,
    SITE_API_BASE_URL: `${sandbox.origin}/api/site/v2`,
    SITE_API_KEY: SANDBOX_AUTH['x-api-key'],
    SITE_ID: SANDBOX_AUTH['x-site-id'],
  };
}

export async function startStandaloneSandbox(): Promise<RunningProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'site-admin-bench-sandbox-'));
  tempDirs.add(dataDir);
  const env = { ...process.env, HOST: '127.0.0.1', SANDBOX_PORT: String(port), SANDBOX_DATA_DIR: dataDir, SITE_PROFILE: '' };
  const started = performance.now();
  const proc = spawnTracked(process.execPath, ['--import', 'tsx', 'server/sandbox/main.ts'], env);
  const origin = `http://127.0.0.1:${port}`;
  await waitForOk(`${origin}/__sandbox/products?limit=1`, proc.child, proc.stderr, started, SANDBOX_AUTH);
  return {
    origin,
    cpuMs: proc.cpuMs,
    stop: async () => {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
      tempDirs.delete(dataDir);
    },
  };
}

export interface ServerStartOptions {
  /** The bench's entry without the activity record's step (bench/server-without-record.ts) instead of main.js. */
  withoutRecord?: boolean;
  /** Node's own flags before the script, e.g. --cpu-prof. */
  nodeArgs?: string[];
}

/** Starts the compiled server on a fresh sandbox database; `extraEnv` e.g. DIST_DIR for another build. */
export async function startServer(extraEnv: Record<string, string> = {}, options: ServerStartOptions = {}): Promise<RunningServer> {
  const [port, sandboxPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'site-admin-bench-'));
  tempDirs.add(dataDir);
  const origin = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_DATA_DIR: dataDir,
    LOG_REQUESTS: 'false',
    SITE_API_BASE_URL: '',
    ...extraEnv,
  };
  const main = await buildServer();
  const started = performance.now();
  const script = options.withoutRecord ? join(dirname(main), 'main-without-record.js') : main;
  const proc = spawnTracked(process.execPath, [...(options.nodeArgs ?? []), script], env);
  await waitForOk(`${origin}/api/health`, proc.child, proc.stderr, started);
  const startupMs = performance.now() - started;

  return {
    origin,
    sandboxOrigin: `http://127.0.0.1:${sandboxPort}`,
    startupMs,
    cpuMs: proc.cpuMs,
    rssKB: proc.rssKB,
    stop: async () => {
      await proc.stop();
      rmSync(dataDir, { recursive: true, force: true });
      tempDirs.delete(dataDir);
    },
  };
}
