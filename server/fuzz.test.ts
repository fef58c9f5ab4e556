/**
 * Property-based and fuzz tests (fast-check) of the two doors of the server:
 *
 * - the sandbox, in-process through app.request(): random and mutated create bodies, random headers and
 *   random paths. Never a 5xx; every 4xx in the spec's error shape; a rejected create stores nothing; an
 *   accepted one comes back with an id and is stored as sent.
 * - the proxy, over real loopback HTTP with raw request text (a client would normalise the path): whatever
 *   arrives, the upstream only ever sees one of the two operations of the spec, canonically encoded,
 *   with the server's credentials and none of the caller's.
 *
 * Runs use a fixed seed (FUZZ_SEED=random for new ones); a failure prints fast-check's seed and path.
 * Replay one with FUZZ_SEED=<seed>.
 */
import fc from 'fast-check';
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullOption, fullProduct as validProduct } from '../src/contract/fixtures';
import { validateProduct } from '../src/contract/rules';
import { API_BASE_PATH, STATUS_PHRASES } from '../src/contract/site-api';
import type { SiteAdminServer } from './app';
import { createSandboxApp } from './sandbox/app';
import { seedCases } from './sandbox/seed';
import { openStore, type SandboxStore } from './sandbox/store';
import {
  closeServer,
  errorShapeProblems,
  fuzzRuns,
  listen,
  proxyListener,
  rawExchange,
  send,
  startSandboxedSite,
  type RawReply,
} from './testing/test-helpers';

type Json = Record<string, unknown>;
type Path = readonly (string | number)[];

const SITE = '1001';
const MAX_BODY = 64 * 1024;
const CREATE = `${API_BASE_PATH}/ecommerce/products/create`;
const SEEDED = seedCases();
const A_CASE = SEEDED[0]!;

/** Sets an own, enumerable property even for `__proto__` (a plain assignment would set the prototype). */
function put(target: Json | unknown[], key: string | number, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A product that uses every field of the spec, valid under every rule of platform-notes. */
const fullProduct = (slug: string): Json =>
  validProduct(slug, [
    { name: 'Colour', enabled: 'true', items: [fullOption('Sand', 1), fullOption('Olive', 3)] },
    { name: 'Size', enabled: 'false', items: [fullOption('Single', 0)] },
  ]);

/** Every path to a value of the full product (containers included), for mutations to aim at. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const own: Path[] = prefix.length > 0 ? [prefix] : [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return [...own, ...entries.flatMap(([key, v]) => pathsOf(v, [...prefix, key]))];
}
const PRODUCT_PATHS = pathsOf(fullProduct('x'));
const OBJECT_PATHS: Path[] = [[], ...PRODUCT_PATHS.filter((p) => p.length === 2 || p.length === 4)];

let slugSerial = 0;
const freshSlug = () => `fuzz-${process.pid}-${(slugSerial += 1)}`;

// ---------------------------------------------------------------------------------------------------------------
// Nasty values
// ---------------------------------------------------------------------------------------------------------------

/** A value as JSON: a plain one, or raw JSON text (deep nesting, prototype keys) spliced in after stringify. */
type Nasty = { json: unknown } | { raw: string };

const ODD_NUMBER_STRINGS = [
  '1e3',
  '0x10',
  ' 10',
  '10 ',
  '+10',
  '-0',
  '010',
  '1_000',
  'Infinity',
  'NaN',
  '1.0',
  '1,000',
  '١٢٣',
  '１２',
  '9'.repeat(20),
  '-1',
  '',
  '0',
  '00',
  '1.5e2',
  '\t1',
  '²',
  '10\u0000',
  '253402300800',
  '0b1',
  '1 000',
];
const UNICODE_BITS = [
  '\uD800',
  '\uDFFF',
  '\uDBFF\uDC00',
  '😀',
  '👩‍👩‍👧',
  '\u202E',
  '\u200F',
  'שלום',
  'مرحبا',
  '\u0000',
  '\uFEFF',
  '\u200B',
  'e\u0301',
  'İ',
  'ß',
  '\u0085',
  '\u2028',
  '\u2029',
  '\\',
  '"',
  '<script>',
  "'; DROP TABLE products; --",
  '%00',
  '\r\n',
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const unicodeString = fc
  .array(fc.oneof(fc.constantFrom(...UNICODE_BITS), loneSurrogate, fc.string({ unit: 'binary', maxLength: 8 })), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));
const hugeString = fc
  .tuple(fc.constantFrom('a', 'é', '😀', '\u0000', '-', '\uD800'), fc.integer({ min: 256, max: 36_000 }))
  .map(([c, n]) => c.repeat(n));
const wrongType = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  // Fresh each time: a shared constant could be mutated into a cycle by a later mutation.
  fc.constant(null).map(() => ({})),
  fc.constant(null).map(() => []),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
const deepNesting = fc
  .tuple(fc.constantFrom('array', 'object'), fc.integer({ min: 50, max: 20_000 }))
  .map(([kind, depth]) => (kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));
const prototypeJson = fc.constantFrom(
  '{"__proto__":{"isAdmin":"true"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":null,"id":"1"}',
  '[{"__proto__":{"id":"1"}}]',
);

const nasty: fc.Arbitrary<Nasty> = fc.oneof(
  { arbitrary: wrongType.map((json) => ({ json })), weight: 3 },
  { arbitrary: fc.constantFrom(...ODD_NUMBER_STRINGS).map((json) => ({ json })), weight: 3 },
  { arbitrary: unicodeString.map((json) => ({ json })), weight: 3 },
  { arbitrary: hugeString.map((json) => ({ json })), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })), weight: 1 },
  { arbitrary: deepNesting.map((raw) => ({ raw })), weight: 1 },
  { arbitrary: prototypeJson.map((raw) => ({ raw })), weight: 1 },
);

const ODD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'Name',
  'NAME',
  'name ',
  ' name',
  'name\u0000',
  'n\u0430me',
  'slug\u200b',
  'module_field_14/product_6',
  'module_field_14/product_0',
  'module_field_14/product/price/usd/5',
  'module_field_14/product/price/jpy/1',
  'module_field_14/product/price/USD/1',
  'module_field_14/product_attribute_option_5',
  'module_field_14/product_attribute_option/inventory/2',
  'items',
  'attributes',
  'id',
  'site_id',
  '',
  '😀',
  'module_field_14//product_1',
];
const EXISTING_KEYS = ['name', 'slug', 'enabled', 'weighting', 'release_date', 'expiry_date', 'attributes', 'category_array'];
const oddKey = fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ unit: 'binary', maxLength: 12 }));

type Mutation =
  | { kind: 'set'; path: Path; value: Nasty }
  | { kind: 'delete'; path: Path }
  | { kind: 'add'; at: Path; key: string; value: Nasty }
  /** A second occurrence of a root key in the JSON text, after the first (JSON.parse keeps the last). */
  | { kind: 'duplicate'; key: string; value: Nasty };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.constantFrom(...PRODUCT_PATHS), value: nasty }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), path: fc.constantFrom(...PRODUCT_PATHS) }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('add' as const), at: fc.constantFrom(...OBJECT_PATHS), key: oddKey, value: nasty }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('duplicate' as const),
      key: fc.oneof(fc.constantFrom(...EXISTING_KEYS), oddKey),
      value: nasty,
    }),
    weight: 1,
  },
);

function navigate(root: unknown, path: Path): unknown {
  let at = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || !Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Applies the mutations to a fresh full product and returns the JSON text to send. */
function mutatedBody(mutations: readonly Mutation[]): string {
  const product = fullProduct(freshSlug());
  const raws: string[] = [];
  const embed = (value: Nasty): unknown => {
    if ('json' in value) return value.json;
    raws.push(value.raw);
    return `@@RAW${raws.length - 1}@@`;
  };
  const duplicates: string[] = [];
  for (const m of mutations) {
    if (m.kind === 'duplicate') {
      duplicates.push(`${JSON.stringify(m.key)}:${JSON.stringify(embed(m.value)) ?? 'null'}`);
      continue;
    }
    const path = m.kind === 'add' ? [...m.at, m.key] : m.path;
    const parent = navigate(product, path.slice(0, -1));
    if (parent === null || typeof parent !== 'object') continue;
    const key = path[path.length - 1]!;
    if (m.kind === 'delete') {
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else delete (parent as Json)[key];
    } else {
      put(parent as Json, key, embed(m.value));
    }
  }
  let text = JSON.stringify(product);
  if (duplicates.length > 0) text = `${text.slice(0, -1)}${text === '{}' ? '' : ','}${duplicates.join(',')}}`;
  raws.forEach((raw, i) => (text = text.replace(`"@@RAW${i}@@"`, raw)));
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// The sandbox, in-process
// ---------------------------------------------------------------------------------------------------------------

describe('fuzz: the sandbox (in-process)', () => {
  let store: SandboxStore;
  let app: ReturnType<typeof createSandboxApp>;
  /** Slugs stored so far: a second create with one of them is a 422 on slug. */
  const taken = new Set<string>();
  const AUTH = { 'x-api-key': 'k', 'x-site-id': SITE };
  const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

  beforeAll(() => {
    store = openStore(':memory:', [SITE]);
    app = createSandboxApp({ store, apiKey: 'k', siteIds: [SITE], maxBodyBytes: MAX_BODY });
  });

  afterAll(() => store.close());

  interface Expected {
    status: number;
    fields?: string[];
    product?: unknown;
  }

  /** What the spec and platform-notes say a create must answer, from the request alone. */
  async function expectedCreate(text: string, headers: Headers): Promise<Expected> {
    const key = headers.get('x-api-key');
    const site = headers.get('x-site-id');
    if (!key || key !== 'k' || !site || !/^[1-9]\d{0,17}$/.test(site)) return { status: 401 };
    if (site !== SITE) return { status: 403 };
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > MAX_BODY) return { status: 413 };
    // What the server reads, decoded as the fetch API decodes a body: UTF-8 (a lone surrogate went out as
    // U+FFFD), leading byte order marks dropped (RFC 8259 lets a parser ignore one; undici drops up to two).
    const received = await new Response(bytes).text();
    const type = headers.get('content-type') ?? '';
    if (type.split(';')[0]?.trim().toLowerCase() !== 'application/json') return { status: 400, fields: ['Content-Type'] };
    let body: unknown;
    try {
      body = JSON.parse(received);
    } catch {
      return { status: 400, fields: ['body'] };
    }
    const check = validateProduct(body);
    if (!check.ok) return { status: check.status, fields: check.details.map((d) => d.field) };
    if (check.product.slug !== undefined && taken.has(check.product.slug)) return { status: 422, fields: ['slug'] };
    return { status: 200, product: check.product };
  }

  /** Sends one create and checks every invariant; returns the status for the coverage tally. */
  async function createAndCheck(text: string, init: HeadersInit = JSON_HEADERS): Promise<number> {
    const headers = new Headers(init);
    const expected = await expectedCreate(text, headers);
    const before = store.countProducts();
    const res = await app.request(`http://localhost${CREATE}`, {
      method: 'POST',
      headers,
      body: new TextEncoder().encode(text),
    });
    const answer = await res.text();
    const where = `${res.status} ${answer.slice(0, 300)}\nfor ${text.slice(0, 300)}`;
    expect(res.status, where).toBeLessThan(500);
    if (res.status >= 400) expect(errorShapeProblems(res.status, res.headers.get('content-type'), answer), where).toEqual([]);
    if (res.status !== 200) {
      expect(store.countProducts(), `a rejected create stored something: ${where}`).toBe(before);
    } else {
      const record = JSON.parse(answer) as Json;
      if (typeof record.slug === 'string') taken.add(record.slug);
      expect(store.countProducts()).toBe(before + 1);
      expect(record.id, where).toEqual(expect.any(String));
      expect(record.id).not.toBe('');
      const stored = store.listProducts(SITE, 1)[0];
      expect(stored?.id).toBe(record.id);
      expect(stored?.body, where).toEqual(expected.product);
      // The answer is the record as a read gives it: the fields sent, with ids and the dates.
      expect(record, where).toEqual(stored?.record);
    }
    expect(res.status, where).toBe(expected.status);
    if (expected.fields && res.status === expected.status) {
      const details = (JSON.parse(answer) as { details?: { field: string }[] }).details ?? [];
      expect(
        details.map((d) => d.field),
        where,
      ).toEqual(expected.fields);
    }
    return res.status;
  }

  async function expectStillServes() {
    const lookup = await app.request(`${API_BASE_PATH}/forms/${A_CASE.form}/cases/${A_CASE.id}`, { headers: AUTH });
    expect(lookup.status).toBe(200);
    expect(await lookup.json()).toEqual(A_CASE.record);
    expect(await createAndCheck(JSON.stringify(fullProduct(freshSlug())))).toBe(200);
  }

  const tally = () => {
    const seen = new Map<number, number>();
    return { seen, add: (status: number) => seen.set(status, (seen.get(status) ?? 0) + 1) };
  };

  it('answers arbitrary JSON and arbitrary text without a 5xx, storing only what it accepts', async () => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.json({ maxDepth: 4 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.jsonValue().map((v) => JSON.stringify({ name: 'x', ...Object(v) })),
        ),
        async (text) => {
          t.add(await createAndCheck(text));
        },
      ),
      fuzzRuns(300),
    );
    expect(t.seen.get(400)).toBeGreaterThan(0);
    await expectStillServes();
  }, 120_000);

  it('answers mutations of a full valid product per the rules: wrong types, nesting, huge and odd strings, odd keys', async () => {
    const t = tally();
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        const text = mutatedBody(mutations);
        const status = await createAndCheck(text);
        t.add(status);
        // Independent of the rules module: a non-string scalar where a string belongs, or an unknown key, is a 400.
        const only = mutations.length === 1 ? mutations[0] : undefined;
        if (only?.kind === 'set' && 'json' in only.value && Buffer.byteLength(text) <= MAX_BODY) {
          const v = only.value.json;
          const leaf = typeof navigate(fullProduct('x'), only.path) === 'string';
          if (leaf && (typeof v === 'number' || typeof v === 'boolean' || v === null)) expect(status).toBe(400);
        }
        if (only?.kind === 'add' && !EXISTING_KEYS.includes(only.key) && Buffer.byteLength(text) <= MAX_BODY) {
          const target = navigate(fullProduct('x'), only.at) as Json | undefined;
          if (target && !Object.prototype.hasOwnProperty.call(target, only.key)) expect(status).toBe(400);
        }
      }),
      fuzzRuns(900),
    );
    for (const status of [200, 400, 413, 422]) expect(t.seen.get(status), `no ${status} among ${[...t.seen]}`).toBeGreaterThan(0);
    await expectStillServes();
  }, 120_000);

  it('answers corrupted JSON text (truncated, spliced, BOM, trailing garbage) with 400, storing nothing', async () => {
    const edit = fc.oneof(
      fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({
        op: fc.constant('insert' as const),
        at: fc.nat(),
        text: fc.oneof(fc.constantFrom(',', '{', '}', '"', '\\', '\u0000', '\uFEFF', ']', ':', 'null'), unicodeString),
      }),
      fc.record({ op: fc.constant('remove' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ op: fc.constantFrom('bom' as const, 'quotes' as const, 'trailing-comma' as const, 'array' as const, 'twice' as const) }),
    );
    const t = tally();
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        let text = JSON.stringify(fullProduct(freshSlug()));
        for (const e of edits) {
          if (e.op === 'truncate') text = text.slice(0, e.at % (text.length + 1));
          else if (e.op === 'insert') text = text.slice(0, e.at % (text.length + 1)) + e.text + text.slice(e.at % (text.length + 1));
          else if (e.op === 'remove') text = text.slice(0, e.at % (text.length + 1)) + text.slice((e.at % (text.length + 1)) + e.length);
          else if (e.op === 'bom') text = `\uFEFF${text}`;
          else if (e.op === 'quotes') text = text.replaceAll('"', "'");
          else if (e.op === 'trailing-comma') text = text.replace(/}$/, ',}');
          else if (e.op === 'array') text = `[${text}]`;
          else text = text + text;
        }
        t.add(await createAndCheck(text));
      }),
      fuzzRuns(300),
    );
    expect(t.seen.get(400)).toBeGreaterThan(0);
    await expectStillServes();
  }, 120_000);

  it('answers random x-api-key, x-site-id and Content-Type headers with 401, 403, 400 or the create', async () => {
    const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 });
    /** The right value most of the time, else missing, an odd value, the header twice, or garbage. */
    const header = (right: string, ...odd: string[]) =>
      fc.oneof(
        { arbitrary: fc.constant(right), weight: 5 },
        { arbitrary: fc.constant(undefined), weight: 1 },
        { arbitrary: fc.constantFrom(...odd), weight: 2 },
        { arbitrary: fc.array(fc.constantFrom(right, ...odd), { minLength: 2, maxLength: 3 }), weight: 1 },
        { arbitrary: printable, weight: 1 },
      );
    const plan = fc.record({
      key: header('k', 'K', ' k', 'k ', 'kk', 'sandbox-local-key', 'k\tk', 'null'),
      site: header('1001', '01001', ' 1001 ', '1001.0', '+1001', '1e3', '1002', '0', '-1001', '1001 1001', '9'.repeat(19), '1001\t'),
      type: header(
        'application/json',
        'APPLICATION/JSON',
        'application/json; charset=utf-8',
        'application/json;charset=latin1',
        'application/jsonx',
        'text/json',
        'application/problem+json',
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/json, text/plain',
        ';application/json',
      ),
      extra: fc.array(
        fc.tuple(fc.constantFrom('cookie', 'authorization', 'x-forwarded-for', 'x-http-method-override', 'origin'), printable),
        { maxLength: 3 },
      ),
      valid: fc.boolean(),
    });
    const t = tally();
    await fc.assert(
      fc.asyncProperty(plan, async ({ key, site, type, extra, valid }) => {
        const headers = new Headers();
        for (const [name, value] of [
          ['x-api-key', key],
          ['x-site-id', site],
          ['content-type', type],
        ] as const) {
          for (const v of value === undefined ? [] : Array.isArray(value) ? value : [value]) headers.append(name, v);
        }
        for (const [name, value] of extra) headers.append(name, value);
        const text = valid ? JSON.stringify(fullProduct(freshSlug())) : '{"name":""}';
        t.add(await createAndCheck(text, headers));
      }),
      fuzzRuns(300),
    );
    for (const status of [200, 400, 401, 403]) expect(t.seen.get(status), `no ${status} among ${[...t.seen]}`).toBeGreaterThan(0);
    await expectStillServes();
  }, 120_000);

  it('answers random paths and methods (encoded slashes, dot segments, absolute URLs, long and unicode segments)', async () => {
    const segment = fc.oneof(
      fc.constantFrom(
        '3',
        '48217',
        '7',
        '12',
        '..',
        '.',
        '%2e%2e',
        '%2E%2E',
        '.%2e',
        '%2e',
        '%2F',
        'a%2Fb',
        '..%2F..%2F__sandbox%2Fproducts',
        '%252e%252e',
        '%00',
        '%ZZ',
        '%',
        '%C0%AE%C0%AE',
        'caf%C3%A9',
        '%F0%9F%98%80',
        '%E2%80%AE',
        '__proto__',
        'constructor',
        '~',
        '',
        ';',
        '@',
        '%3F',
        '%23',
        '%5C',
        '\\',
        'ecommerce',
        'products',
        'create',
        '__sandbox',
      ),
      fc.string({ unit: 'binary', maxLength: 10 }),
      fc.integer({ min: 65, max: 6000 }).map((n) => 'x'.repeat(n)),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    );
    const path = fc.oneof(
      fc.tuple(segment, segment).map(([f, i]) => `${API_BASE_PATH}/forms/${f}/cases/${i}`),
      fc.array(segment, { maxLength: 6 }).map((s) => `${API_BASE_PATH}/${s.join('/')}`),
      fc.array(segment, { maxLength: 6 }).map((s) => `/${s.join('/')}`),
      fc.constantFrom(
        CREATE,
        `${CREATE}/`,
        `${API_BASE_PATH}/ecommerce/products/%63reate`,
        `${API_BASE_PATH}/ecommerce/products/./create`,
        `${API_BASE_PATH}/ecommerce/x/../products/create`,
        `${API_BASE_PATH}/../../__sandbox/products`,
        `${API_BASE_PATH}/%2e%2e/%2e%2e/__sandbox/products`,
        '/__sandbox/products',
        '/__sandbox/cases',
        '//api/site/v2/forms/3/cases/48217',
        '/API/SITE/V2/forms/3/cases/48217',
        `${API_BASE_PATH}//forms/3/cases/48217`,
        `${API_BASE_PATH}/forms/3/cases/48217?x=1#y`,
        `${API_BASE_PATH}/forms/3/cases/48217%3Fx`,
        'http://evil.example/api/site/v2/forms/3/cases/48217',
        'https://127.0.0.1:1/api/site/v2/ecommerce/products/create',
        '/',
        '*',
        API_BASE_PATH,
        `${API_BASE_PATH}/`,
        '/\\evil.example/x',
        `${API_BASE_PATH}/forms/3/cases/48217\\..\\..\\x`,
      ),
      fc.webPath(),
    );
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
    const t = tally();
    let unbuildable = 0;
    await fc.assert(
      fc.asyncProperty(method, path, async (verb, target) => {
        const url = /^https?:\/\//i.test(target) ? target : `http://localhost${target.startsWith('/') ? '' : '/'}${target}`;
        const product = fullProduct(freshSlug());
        const hasBody = verb !== 'GET' && verb !== 'HEAD';
        let request: Request;
        try {
          request = new Request(url, {
            method: verb,
            headers: JSON_HEADERS,
            body: hasBody ? JSON.stringify(product) : undefined,
          });
        } catch {
          unbuildable += 1; // Not a request any client could send: nothing to test.
          return;
        }
        const before = store.countProducts();
        const res = await app.request(request);
        const answer = await res.text();
        const where = `${verb} ${target.slice(0, 200)} → ${res.status} ${answer.slice(0, 200)}`;
        t.add(res.status);
        expect(res.status, where).toBeLessThan(500);
        if (res.status >= 400 && verb !== 'HEAD') {
          expect(errorShapeProblems(res.status, res.headers.get('content-type'), answer), where).toEqual([]);
        }
        const created = store.countProducts() - before;
        if (res.status === 200 && verb === 'POST' && created === 1) {
          const record = JSON.parse(answer) as Json;
          const stored = store.listProducts(SITE, 1)[0];
          expect(stored?.body, where).toEqual(product);
          expect(record, where).toEqual(stored?.record);
          taken.add(product.slug as string);
        } else {
          expect(created, `stored something: ${where}`).toBe(0);
        }
        if (res.status === 200 && verb === 'GET') expect(JSON.parse(answer), where).toEqual(expect.any(Object));
      }),
      fuzzRuns(300),
    );
    expect(unbuildable).toBeLessThan(30);
    for (const status of [200, 404, 422]) expect(t.seen.get(status), `no ${status} among ${[...t.seen]}`).toBeGreaterThan(0);
    await expectStillServes();
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// The proxy, over real loopback HTTP, in front of a recording upstream
// ---------------------------------------------------------------------------------------------------------------

interface UpstreamRecord {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  complete: boolean;
  answered?: number;
}

const UPSTREAM_HEADERS = new Set([
  'host',
  'connection',
  'x-api-key',
  'x-site-id',
  'x-request-id',
  'accept',
  'content-type',
  'content-length',
  'transfer-encoding',
]);
/** Case ids the recording upstream answers with another status than 200. */
const UPSTREAM_STATUS = new Map([
  ['500', 500],
  ['503', 503],
  ['gone', 404],
  ['422', 422],
]);
const FORM_CASE_URL = /^\/api\/site\/v2\/forms\/([^/?#]+)\/cases\/([^/?#]+)$/;
/** A list of a form's cases as it may reach the platform: only the list's parameters, each encoded. */
const CASE_LIST_URL =
  /^\/api\/site\/v2\/forms\/([A-Za-z0-9_-]{1,64})\/cases(?:\?((?:per_page|page|sort_type|sort_order|filter)=[^&#?]*(?:&(?:per_page|page|sort_type|sort_order|filter)=[^&#?]*)*))?$/;

/** Problems with one request the upstream received; empty when it is one of the two operations, done right. */
function upstreamProblems(r: UpstreamRecord): string[] {
  const problems: string[] = [];
  const forms = FORM_CASE_URL.exec(r.url);
  if (r.method === 'GET' && forms) {
    for (const segment of [forms[1]!, forms[2]!]) {
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        problems.push(`segment ${segment} does not decode`);
      }
      if (decoded !== undefined && ['', '.', '..'].includes(decoded)) problems.push(`dot segment ${segment}`);
      if (decoded !== undefined && /[/\\]/.test(decoded)) problems.push(`segment ${segment} holds a slash`);
      if (decoded !== undefined && encodeURIComponent(decoded) !== segment) problems.push(`segment ${segment} is not canonical`);
    }
    // No URL parser on the way could turn it into another path.
    if (new URL(r.url, 'http://upstream.invalid').pathname !== r.url) problems.push(`${r.url} normalises to another path`);
  } else if (r.method === 'GET' && CASE_LIST_URL.test(r.url)) {
    // Every value encoded as encodeURIComponent writes it: nothing a parser on the way could read otherwise.
    for (const pair of r.url.split('?')[1]?.split('&') ?? []) {
      const value = pair.slice(pair.indexOf('=') + 1);
      if (encodeURIComponent(decodeURIComponent(value)) !== value) problems.push(`the list's parameter ${pair} is not canonical`);
    }
  } else if (!(r.method === 'POST' && r.url === CREATE)) {
    problems.push(`not an operation of the spec: ${r.method} ${r.url}`);
  }
  if (r.headers['x-api-key'] !== 'secret') problems.push(`x-api-key is ${String(r.headers['x-api-key'])}`);
  if (r.headers['x-site-id'] !== SITE) problems.push(`x-site-id is ${String(r.headers['x-site-id'])}`);
  for (const name of ['x-api-key', 'x-site-id']) {
    const count = r.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name).length;
    if (count !== 1) problems.push(`${name} sent ${count} times`);
  }
  for (const name of Object.keys(r.headers)) if (!UPSTREAM_HEADERS.has(name)) problems.push(`forwarded header ${name}`);
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(String(r.headers['x-request-id']))) problems.push('no valid x-request-id');
  return problems;
}

/**
 * The upstream path the proxy must ask for an origin-form target under the base path; null for no
 * operation, 'refused' for a lookup whose identifiers the contract's rule rejects.
 */
/** The list queries of the targets below, and what goes on to the platform for each: checked, in the list's order. */
const LIST_QUERIES: Record<string, string> = {
  '': '',
  'per_page=20&page=2': '?per_page=20&page=2',
  'sort_order=desc&per_page=5': '?per_page=5&sort_order=desc',
  'filter=%7B%22email%22%3A%22a%40example.com%22%7D': '?filter=%7B%22email%22%3A%22a%40example.com%22%7D',
};

function expectedUpstreamUrl(method: string, target: string): string | null | 'refused' {
  const rest = (target.split('?')[0] ?? '').slice(API_BASE_PATH.length);
  if (method === 'POST') return rest === '/ecommerce/products/create' ? CREATE : null;
  const list = /^\/forms\/(3|%33)\/cases$/.exec(rest);
  if (method === 'GET' && list) {
    // Only the list targets below: form 3, and a query that is either one of LIST_QUERIES or refused.
    const sent = LIST_QUERIES[target.includes('?') ? target.slice(target.indexOf('?') + 1) : ''];
    return sent === undefined ? 'refused' : `${API_BASE_PATH}/forms/3/cases${sent}`;
  }
  const product = /^\/ecommerce\/products\/([^/]+)$/.exec(rest);
  if (product && (method === 'GET' || method === 'PUT')) {
    let id: string;
    try {
      id = decodeURIComponent(product[1]!);
    } catch {
      return null;
    }
    // The create's own path has no read or update; any other id must be a platform id.
    if (['', '.', '..', 'create'].includes(id) || /[/\\]/.test(id)) return null;
    return /^[1-9]\d{0,17}$/.test(id) ? `${API_BASE_PATH}/ecommerce/products/${id}` : 'refused';
  }
  const forms = /^\/forms\/([^/]+)\/cases\/([^/]+)$/.exec(rest);
  if (method !== 'GET' || !forms) return null;
  const canonical = (raw: string) => {
    try {
      const decoded = decodeURIComponent(raw);
      // No identifier holds a slash or a dot segment: the proxy refuses those outright.
      return ['', '.', '..'].includes(decoded) || /[/\\]/.test(decoded) ? null : encodeURIComponent(decoded);
    } catch {
      return null;
    }
  };
  const form = canonical(forms[1]!);
  const id = canonical(forms[2]!);
  if (form === null || id === null) return null;
  const identifier = /^[A-Za-z0-9_-]{1,64}$/;
  if (!identifier.test(decodeURIComponent(form)) || !identifier.test(decodeURIComponent(id))) return 'refused';
  return `${API_BASE_PATH}/forms/${form}/cases/${id}`;
}

interface RawPlan {
  method: string;
  target: string;
  version: string;
  host: 'ok' | 'none' | 'garbage' | 'twice';
  requestId: 'unique' | 'garbage' | 'none' | 'twice';
  headers: [string, string][];
  body: string | Uint8Array | { bigJsonBytes: number } | null;
  framing: 'length' | 'chunked' | 'none' | 'both' | 'bad-length' | 'two-lengths';
  chunks: number;
}

const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'upgrade', 'expect', 'host', 'x-request-id']);
const SPECIAL_HEADERS = [
  'x-api-key',
  'x-site-id',
  'cookie',
  'authorization',
  'proxy-authorization',
  'content-type',
  'accept',
  'x-forwarded-for',
  'x-forwarded-host',
  'forwarded',
  'origin',
  'sec-fetch-site',
  'x-http-method-override',
  'x-original-url',
  'x-rewrite-url',
  'via',
  'te',
  'keep-alive',
  'accept-encoding',
  'referer',
  'x-real-ip',
];
/** Field values node accepts: HTAB, SP, visible ASCII and obs-text; never NUL, CR, LF or DEL. */
const garbageValue = fc.oneof(
  fc.string({
    unit: fc
      .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x09))
      .map((c) => String.fromCharCode(c)),
    maxLength: 40,
  }),
  fc.constantFrom(
    'secret',
    'application/json',
    'application/json; charset=utf-8',
    'text/html',
    '*/*',
    'session=abc; admin=1',
    'Bearer x',
    'same-origin',
  ),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'v'.repeat(n)),
);
const headerName = fc
  .oneof(
    fc.constantFrom(...SPECIAL_HEADERS),
    fc.mixedCase(fc.constantFrom(...SPECIAL_HEADERS)),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
  )
  .filter((name) => !FRAMING_HEADERS.has(name.toLowerCase()));

const proxySegment = fc.oneof(
  fc.constantFrom(
    '3',
    '48217',
    '500',
    '503',
    'gone',
    '422',
    '..',
    '.',
    '%2e%2e',
    '%2E%2e',
    '.%2e',
    '%2e',
    '%2F',
    'a%2Fb',
    '..%2F..%2Fadmin',
    '%2e%2e%2f',
    '%252e%252e',
    '%00',
    '%ZZ',
    '%',
    '%C0%AE%C0%AE',
    'caf%C3%A9',
    'café',
    '%E2%80%AE',
    '~',
    '__proto__',
    ';x=1',
    'a;b',
    '%3F',
    '%23',
    '\\..',
    '..\\',
    'x'.repeat(3000),
    "'",
    '(',
    '*',
    '!',
    '%20',
    '+',
    '%EF%BC%8E%EF%BC%8E',
    '%0D%0A',
    'a%0Ab',
    '%2500',
    'x'.repeat(65),
  ),
  fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@%-]{1,20}$/),
  // Identifiers the contract accepts, so that lookups reach the upstream too.
  { arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/), weight: 4 },
);
const proxyTarget = fc.oneof(
  { arbitrary: fc.tuple(proxySegment, proxySegment).map(([f, i]) => `${API_BASE_PATH}/forms/${f}/cases/${i}`), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      CREATE,
      `${CREATE}/`,
      `${API_BASE_PATH}/ecommerce/products/Create`,
      `${API_BASE_PATH}/ecommerce/products/%63reate`,
      `${API_BASE_PATH}//ecommerce/products/create`,
      `${API_BASE_PATH}/ecommerce/products/./create`,
      `${CREATE}?site=2`,
      `${API_BASE_PATH}/../../__sandbox/products`,
      `${API_BASE_PATH}/forms/3/cases/1/../../../../secret`,
      `${API_BASE_PATH}/forms/3/cases/1?x=../../y`,
      `${API_BASE_PATH}/forms/3/cases/1#frag`,
      `${API_BASE_PATH}/forms/3/cases`,
      `${API_BASE_PATH}/forms/3/cases?per_page=20&page=2`,
      `${API_BASE_PATH}/forms/%33/cases?sort_order=desc&per_page=5`,
      `${API_BASE_PATH}/forms/3/cases?filter=%7B%22email%22%3A%22a%40example.com%22%7D`,
      `${API_BASE_PATH}/forms/3/cases?per_page=501`,
      `${API_BASE_PATH}/forms/3/cases?page=0`,
      `${API_BASE_PATH}/forms/3/cases?page=1&page=2`,
      `${API_BASE_PATH}/forms/3/cases?filter=%5B1%5D`,
      `${API_BASE_PATH}/forms/3/cases?limit=5`,
      `${API_BASE_PATH}`,
      `${API_BASE_PATH}/`,
      `${API_BASE_PATH}/users/me`,
      'http://evil.example/api/site/v2/forms/3/cases/1',
      '//evil.example/api/site/v2/forms/3/cases/1',
      '*',
      `${API_BASE_PATH}/forms/3/cases/1%2F..%2F..%2Fx`,
    ),
    weight: 3,
  },
  { arbitrary: fc.array(proxySegment, { maxLength: 5 }).map((s) => `${API_BASE_PATH}/${s.join('/')}`), weight: 1 },
);

const rawPlan: fc.Arbitrary<RawPlan> = fc.record({
  method: fc.oneof(
    { arbitrary: fc.constantFrom('GET', 'POST'), weight: 6 },
    { arbitrary: fc.constantFrom('PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'get', 'FOO', 'G ET'), weight: 1 },
  ),
  target: proxyTarget,
  version: fc.oneof(
    { arbitrary: fc.constant('HTTP/1.1'), weight: 10 },
    { arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'http/1.1'), weight: 1 },
  ),
  host: fc.oneof(
    { arbitrary: fc.constant('ok' as const), weight: 10 },
    { arbitrary: fc.constantFrom('none' as const, 'garbage' as const, 'twice' as const), weight: 1 },
  ),
  requestId: fc.constantFrom('unique' as const, 'garbage' as const, 'none' as const, 'twice' as const),
  headers: fc.array(fc.tuple(headerName, garbageValue), { maxLength: 8 }),
  body: fc.oneof(
    fc.constant(null),
    fc.constant('{"name":"Mug","slug":"mug"}'),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.uint8Array({ maxLength: 300 }),
    // A JSON body of about n bytes (stated as a number, so a counterexample stays readable).
    fc.integer({ min: 60_000, max: 70_000 }).map((n) => ({ bigJsonBytes: n })),
  ),
  framing: fc.oneof(
    { arbitrary: fc.constantFrom('length' as const, 'chunked' as const, 'none' as const), weight: 10 },
    { arbitrary: fc.constantFrom('both' as const, 'bad-length' as const, 'two-lengths' as const), weight: 1 },
  ),
  chunks: fc.integer({ min: 1, max: 4 }),
});

let requestSerial = 0;

/** The request as bytes; header values go out as latin1, the target as UTF-8 (what a careless client sends). */
function buildRaw(plan: RawPlan, port: number): { bytes: Buffer; requestId: string | undefined; sentBody: Buffer } {
  const lines: string[] = [];
  const host = `127.0.0.1:${port}`;
  if (plan.host === 'ok') lines.push(`Host: ${host}`);
  if (plan.host === 'garbage') lines.push('Host: evil.example');
  if (plan.host === 'twice') lines.push(`Host: ${host}`, 'Host: evil.example');
  const requestId = plan.requestId === 'unique' || plan.requestId === 'twice' ? `fz-${process.pid}-${(requestSerial += 1)}` : undefined;
  if (requestId) lines.push(`X-Request-Id: ${requestId}`);
  if (plan.requestId === 'twice') lines.push('X-Request-Id: another');
  if (plan.requestId === 'garbage') lines.push('X-Request-Id: no spaces allowed/here');
  // Keep the head well under node's 16 KiB header limit, so the proxy (not the parser) is what is tested.
  let budget = 12_000;
  for (const [name, value] of plan.headers) {
    if (name.length + value.length + 4 > budget) continue;
    budget -= name.length + value.length + 4;
    lines.push(`${name}: ${value}`);
  }
  const body =
    plan.body === null
      ? Buffer.alloc(0)
      : typeof plan.body === 'string'
        ? Buffer.from(plan.body, 'utf8')
        : plan.body instanceof Uint8Array
          ? Buffer.from(plan.body)
          : Buffer.from(JSON.stringify({ name: 'x'.repeat(plan.body.bigJsonBytes - 11) }), 'utf8');
  let payload = Buffer.alloc(0);
  let sentBody = Buffer.alloc(0);
  if (plan.body && plan.framing !== 'none') {
    if (plan.framing === 'length') {
      lines.push(`Content-Length: ${body.length}`);
      payload = body;
      sentBody = body;
    } else if (plan.framing === 'chunked' || plan.framing === 'both') {
      lines.push('Transfer-Encoding: chunked');
      if (plan.framing === 'both') lines.push(`Content-Length: ${body.length}`);
      const size = Math.ceil(body.length / plan.chunks) || 1;
      const parts: Buffer[] = [];
      for (let at = 0; at < body.length; at += size) {
        const chunk = body.subarray(at, at + size);
        parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, Buffer.from('\r\n', 'latin1'));
      }
      parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
      payload = Buffer.concat(parts);
      sentBody = body;
    } else if (plan.framing === 'bad-length') {
      lines.push('Content-Length: -1');
      payload = body;
    } else {
      lines.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
      payload = body;
    }
  }
  lines.push('Connection: close');
  const head = Buffer.concat([
    Buffer.from(`${plan.method} `, 'latin1'),
    Buffer.from(plan.target, 'utf8'),
    Buffer.from(` ${plan.version}\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
  ]);
  return { bytes: Buffer.concat([head, payload]), requestId, sentBody };
}

describe('fuzz: the proxy (raw HTTP on 127.0.0.1)', () => {
  const records: UpstreamRecord[] = [];
  let upstream: http.Server;
  let proxyServer: http.Server;
  let proxyPort: number;

  function recordingUpstream(req: IncomingMessage, res: ServerResponse) {
    const record: UpstreamRecord = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.alloc(0),
      complete: false,
    };
    records.push(record);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => undefined);
    req.on('end', () => {
      record.body = Buffer.concat(chunks);
      record.complete = true;
      const id = record.url.split('/').pop() ?? '';
      const status = record.method === 'GET' ? (UPSTREAM_STATUS.get(id) ?? 200) : 200;
      record.answered = status;
      const text = JSON.stringify(
        status === 200
          ? { id: 'upstream-1', ok: true }
          : { error: STATUS_PHRASES[status] ?? 'Service Unavailable', message: 'The upstream says so.', code: status },
      );
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  }

  beforeAll(async () => {
    upstream = http.createServer(recordingUpstream);
    const upstreamPort = await listen(upstream);
    const proxy = proxyListener({
      site: 'main',
      upstream: new URL(`http://127.0.0.1:${upstreamPort}/api/site/v2`),
      apiKey: 'secret',
      siteId: SITE,
      timeoutMs: 2000,
      maxBodyBytes: MAX_BODY,
    });
    proxyServer = http.createServer(proxy);
    proxyPort = await listen(proxyServer);
  });

  afterAll(async () => {
    await closeServer(proxyServer);
    await closeServer(upstream);
  });

  async function expectStillServes() {
    const before = records.length;
    const lookup = await send(proxyPort, { path: `${API_BASE_PATH}/forms/3/cases/48217` });
    expect(lookup.status).toBe(200);
    const create = await send(proxyPort, {
      method: 'POST',
      path: CREATE,
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Mug"}',
    });
    expect(create.status).toBe(200);
    expect(records.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${API_BASE_PATH}/forms/3/cases/48217`,
      `POST ${CREATE}`,
    ]);
  }

  it('forwards only the two operations, canonically, with its own credentials, whatever the request', async () => {
    const seen = new Map<string, number>();
    const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
    await fc.assert(
      fc.asyncProperty(rawPlan, async (plan) => {
        const { bytes, sentBody } = buildRaw(plan, proxyPort);
        const from = records.length;
        const { reply, timedOut, raw } = await rawExchange(proxyPort, bytes, { headRequest: plan.method === 'HEAD' });
        const where = `${plan.method} ${plan.target.slice(0, 120)} (${plan.framing}) → ${raw.subarray(0, 300).toString('latin1')}`;
        expect(timedOut, `no answer: ${where}`).toBe(false);
        expect(reply, `no HTTP answer: ${where}`).not.toBeNull();
        const answer = reply as RawReply;
        const requestId = answer.headers['x-request-id']?.[0];
        const forwarded = records.filter((r) => r.headers['x-request-id'] === requestId);

        if (requestId === undefined) {
          // Refused by node's HTTP parser before the proxy saw it: never 2xx or 5xx, and nothing went upstream.
          count(`parser ${answer.status}`);
          expect([400, 408, 413, 431], where).toContain(answer.status);
          return;
        }
        count(`proxy ${answer.status}`);
        expect(forwarded.length, where).toBeLessThanOrEqual(1);
        if (answer.status >= 500 || answer.status < 300) {
          expect(forwarded.length, `a ${answer.status} that the upstream did not answer: ${where}`).toBe(1);
          expect(forwarded[0]?.answered, where).toBe(answer.status);
        } else if (forwarded.length === 0) {
          // Answered by the proxy itself: "no such operation", "too large", an identifier the contract
          // refuses, or a lookup that came with a body; in the error shape.
          expect([400, 404, 413, 422], where).toContain(answer.status);
          if (plan.method !== 'HEAD') {
            expect(errorShapeProblems(answer.status, answer.headers['content-type']?.[0], answer.text), where).toEqual([]);
          }
        }
        const expectedUrl = plan.target.startsWith(`${API_BASE_PATH}/`) ? expectedUpstreamUrl(plan.method, plan.target) : undefined;
        // A lookup that carries a body (chunked, even an empty one, or a non-zero Content-Length) is refused.
        const lookupWithBody =
          plan.method === 'GET' && Boolean(plan.body) && (plan.framing === 'chunked' || (plan.framing === 'length' && sentBody.length > 0));
        if (expectedUrl === null || expectedUrl === 'refused') {
          expect(answer.status, where).toBe(expectedUrl === null ? 404 : 422);
          expect(forwarded, where).toEqual([]);
        } else if (expectedUrl !== undefined && lookupWithBody) {
          expect(answer.status, where).toBe(400);
          expect(forwarded, where).toEqual([]);
        } else if (expectedUrl !== undefined && answer.status !== 413) {
          expect(
            forwarded.map((r) => r.url),
            where,
          ).toEqual([expectedUrl]);
        }
        const record = forwarded[0];
        if (record?.method === 'POST' && record.complete && answer.status < 300) {
          expect(record.body.equals(sentBody), `the body changed on the way: ${where}`).toBe(true);
        }
        for (const r of records.slice(from)) expect(upstreamProblems(r), where).toEqual([]);
      }),
      fuzzRuns(700),
    );
    // Every request the upstream ever received, once more.
    for (const r of records) expect(upstreamProblems(r), `${r.method} ${r.url}`).toEqual([]);
    // The runs must have exercised the proxy itself, not only the parser in front of it.
    expect(seen.get('proxy 200'), JSON.stringify([...seen])).toBeGreaterThan(50);
    expect(seen.get('proxy 404'), JSON.stringify([...seen])).toBeGreaterThan(50);
    await expectStillServes();
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------------------------
// The whole server in sandbox mode: the same-origin gate in front of the proxy, under random headers
// ---------------------------------------------------------------------------------------------------------------

describe('fuzz: the whole server in sandbox mode', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  let site: SiteAdminServer;
  let port: number;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-fuzz-');
    ({ site, port } = running);
  });

  afterAll(() => running?.stop());

  it('stores a product only for a same-origin create, and never answers 5xx', async () => {
    const plan = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD'),
      target: fc.oneof(
        { arbitrary: fc.constant(CREATE), weight: 4 },
        { arbitrary: fc.tuple(proxySegment, proxySegment).map(([f, i]) => `${API_BASE_PATH}/forms/${f}/cases/${i}`), weight: 2 },
        {
          arbitrary: fc.constantFrom(
            '/api/sites',
            '/api/health',
            '/api/nope',
            `${API_BASE_PATH}/../../__sandbox/products`,
            '/__sandbox/products',
            API_BASE_PATH,
            `${API_BASE_PATH}?x`,
          ),
          weight: 1,
        },
      ),
      origin: fc.option(
        fc.constantFrom('self', 'http://evil.example', 'null', 'http://127.0.0.1', 'https://127.0.0.1:PORT', 'not a url', 'self, self', ''),
      ),
      fetchSite: fc.option(fc.constantFrom('same-origin', 'same-site', 'cross-site', 'none', 'SAME-ORIGIN', 'same-origin, same-origin')),
      host: fc.constantFrom('self', 'self', 'self', 'evil.example', 'localhost:PORT'),
    });
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(plan, async ({ method, target, origin, fetchSite, host }) => {
        const self = `127.0.0.1:${port}`;
        const hostValue = host === 'self' ? self : host.replace('PORT', String(port));
        const lines = [`Host: ${hostValue}`, 'Content-Type: application/json'];
        if (origin !== null)
          lines.push(
            `Origin: ${origin === 'self' ? `http://${self}` : origin === 'self, self' ? `http://${self}, http://${self}` : origin.replace('PORT', String(port))}`,
          );
        if (fetchSite !== null) lines.push(`Sec-Fetch-Site: ${fetchSite}`);
        const body = Buffer.from(JSON.stringify({ name: 'Gate', slug: freshSlug() }));
        if (method !== 'GET' && method !== 'HEAD') lines.push(`Content-Length: ${body.length}`);
        lines.push('Connection: close');
        const head = Buffer.from(`${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`, 'latin1');
        const before = site.sandbox!.store.countProducts();
        const { reply, raw } = await rawExchange(port, method !== 'GET' && method !== 'HEAD' ? Buffer.concat([head, body]) : head, {
          headRequest: method === 'HEAD',
        });
        const where = `${method} ${target.slice(0, 100)} origin=${String(origin)} sec-fetch-site=${String(fetchSite)} host=${host} → ${raw.subarray(0, 200).toString('latin1')}`;
        expect(reply, where).not.toBeNull();
        const status = reply!.status;
        seen.set(status, (seen.get(status) ?? 0) + 1);
        if (reply!.headers['content-security-policy'] === undefined) {
          // Refused by node's HTTP parser (every answer of ours carries the security headers).
          expect([400, 431], where).toContain(status);
          expect(site.sandbox!.store.countProducts(), where).toBe(before);
          return;
        }
        expect(status, where).toBeLessThan(500);
        if (status >= 400 && method !== 'HEAD' && target.startsWith('/api')) {
          expect(errorShapeProblems(status, reply!.headers['content-type']?.[0], reply!.text), where).toEqual([]);
        }
        // The gate, as security.ts documents it: Sec-Fetch-Site: same-origin, or else an Origin whose host is the Host.
        let sameOrigin: boolean;
        if (fetchSite !== null) sameOrigin = fetchSite === 'same-origin';
        else {
          const originValue = origin === 'self' ? `http://${self}` : origin === 'self, self' ? 'x' : origin?.replace('PORT', String(port));
          try {
            sameOrigin = !!originValue && originValue !== 'null' && new URL(originValue).host === hostValue;
          } catch {
            sameOrigin = false;
          }
        }
        const created = site.sandbox!.store.countProducts() - before;
        // A Host that is not one of ours (DNS rebinding) is answered 421 before anything else.
        const ourHost = hostValue !== 'evil.example';
        if (!ourHost) {
          expect(status, where).toBe(421);
          expect(created, where).toBe(0);
          return;
        }
        if (method === 'POST' && target === CREATE && sameOrigin) {
          expect(status, where).toBe(200);
          expect(created, where).toBe(1);
        } else {
          expect(created, `stored without a same-origin create: ${where}`).toBe(0);
          if (target.startsWith(API_BASE_PATH) && method !== 'GET' && method !== 'HEAD' && !sameOrigin) expect(status, where).toBe(403);
        }
      }),
      fuzzRuns(250),
    );
    expect(seen.get(200)).toBeGreaterThan(0);
    expect(seen.get(403)).toBeGreaterThan(0);
    const lookup = await send(port, { path: `${API_BASE_PATH}/forms/${A_CASE.form}/cases/${A_CASE.id}` });
    expect(lookup.status).toBe(200);
  }, 120_000);
});
