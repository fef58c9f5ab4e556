/**
 * Load on the sandbox and the proxy with autocannon, from this process; the server is another process,
 * so the load generator and the server each get a core of the two.
 */
import autocannon, { type RequestData, type Result } from 'autocannon';
import { validateProduct } from '../src/contract/rules';
import type { RunningServer } from './server-process';
import { round } from './stats';

const DURATION_S = 10;
const WARMUP_S = 2;
const CONNECTIONS = 50;
const CASE_PATH = '/api/site/v2/forms/3/cases/48217';
const CREATE_PATH = '/api/site/v2/ecommerce/products/create';
const SANDBOX_HEADERS = { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' };

export interface LoadFigures {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface HttpFigures {
  caseLookup: LoadFigures;
  create: LoadFigures;
  proxyCaseLookup: LoadFigures;
  /** Proxy throughput / direct throughput, same run. */
  proxyThroughputRatio: number;
  /** Proxy p50 − direct p50, in ms. */
  proxyAddedP50Ms: number;
}

export function figures(result: Result): LoadFigures {
  return {
    requestsPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/** A small, realistic product: a price, a category, one attribute of two options. */
export function productBody(slug: string) {
  return {
    name: `Bench mug ${slug}`,
    slug,
    enabled: 'true',
    weighting: '10',
    category_array: [{ id: '158198' }],
    'module_field_14/product_1': 'Stoneware mug, 350 ml. Dishwasher safe.',
    'module_field_14/product/price/usd/1': '1999',
    'module_field_14/product/price/aud/1': '2999',
    attributes: [
      {
        name: 'Size',
        enabled: 'true',
        items: [
          { name: 'Small', enabled: 'true', 'module_field_14/product_attribute_option/price/usd/1': '0' },
          { name: 'Large', enabled: 'true', 'module_field_14/product_attribute_option/price/usd/1': '250' },
        ],
      },
    ],
  };
}

// Every create needs a slug never used before on the site: one counter for every run of this process.
const runTag = Date.now().toString(36);
let created = 0;
const nextCreate = (request: RequestData): RequestData => {
  created += 1;
  return { ...request, body: JSON.stringify(productBody(`bench-${runTag}-${created}`)) };
};

/** Case lookups at `url` for `duration` seconds over `connections` keep-alive connections. */
export function lookupLoad(url: string, duration: number, headers: Record<string, string>, connections = CONNECTIONS) {
  return autocannon({ url, connections, duration, headers });
}

function lookup(origin: string, duration: number, headers: Record<string, string>) {
  return lookupLoad(`${origin}${CASE_PATH}`, duration, headers);
}

/** Product creates at `url` (each a new slug) for `duration` seconds. */
export function createLoad(url: string, duration: number, headers: Record<string, string>, connections = CONNECTIONS) {
  return autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: new URL(url).pathname,
        headers: { ...headers, 'content-type': 'application/json' },
        setupRequest: nextCreate,
      },
    ],
  });
}

function create(origin: string, duration: number) {
  return createLoad(`${origin}${CREATE_PATH}`, duration, SANDBOX_HEADERS);
}

export async function runHttpBenchmarks(server: RunningServer, log: (line: string) => void): Promise<HttpFigures> {
  const check = validateProduct(productBody('bench-check'));
  if (!check.ok) throw new Error(`The benchmark's product is not valid: ${JSON.stringify(check.details)}`);

  // Warm both paths first (JIT, SQLite page cache, keep-alive sockets), unmeasured.
  await lookup(server.sandboxOrigin, WARMUP_S, SANDBOX_HEADERS);
  await lookup(server.origin, WARMUP_S, {});
  await create(server.sandboxOrigin, WARMUP_S);

  log(`  case lookup, sandbox direct (${DURATION_S} s × ${CONNECTIONS} connections)`);
  const direct = figures(await lookup(server.sandboxOrigin, DURATION_S, SANDBOX_HEADERS));
  // Right after the direct run, so the two see the same machine.
  log('  case lookup, through the proxy');
  const proxied = figures(await lookup(server.origin, DURATION_S, {}));
  log('  create, sandbox direct');
  const creates = figures(await create(server.sandboxOrigin, DURATION_S));

  return {
    caseLookup: direct,
    create: creates,
    proxyCaseLookup: proxied,
    proxyThroughputRatio: round(proxied.requestsPerSec / direct.requestsPerSec, 2),
    proxyAddedP50Ms: round(proxied.p50Ms - direct.p50Ms, 2),
  };
}
