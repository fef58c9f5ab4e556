/**
 * The permission rules, as a property (fast-check): random people with random grants (a role on random
 * sites of a profile of several live sites, or on all of them), signed in with a password, make random
 * calls (a case lookup, a list of a form's cases, a product create, the list of products, one product) on random sites, through the whole server to one recording
 * stand-in platform per site. A call is forwarded exactly when the person's grants allow it on that site,
 * to that site's platform alone, with that site's key and site id; otherwise it is answered 403 in the
 * spec's error shape, naming what the person may do there, and no platform receives anything. On SQLite
 * and PostgreSQL alike, since grants and sessions are read from the database on every call.
 */
import fc from 'fast-check';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_SITES, refusalMessage, ROLES, type Capability, type Grant } from '../../src/contract/access';
import { hashPassword } from '../auth/password-hash';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { describeEachEngine } from '../testing/postgres';
import { recordingPlatform, type RecordingPlatform as StandIn } from '../testing/recording-platform';
import { cookiesSet, errorShapeProblems, fuzzRuns, send, signInWithPassword, startWholeServer, tempDir } from '../testing/test-helpers';

/** The live sites of the profile: ids that are prefixes of each other, base paths that differ. */
const SITES = [
  { id: 'harbour-linen', name: 'Harbour Linen', siteId: '5101', key: 'KEY-harbour-3c9e01', env: 'HARBOUR_API_KEY', base: '/api/site/v2' },
  { id: 'summit', name: 'Summit Outfitters', siteId: '5102', key: 'KEY-summit-7a12f4', env: 'SUMMIT_API_KEY', base: '/shop/api/site/v2' },
  { id: 'summit-2', name: 'Summit Two', siteId: '5103', key: 'KEY-summit-2-e04b88', env: 'SUMMIT_2_API_KEY', base: '/api/site/v2' },
  { id: 'north', name: 'North Shop', siteId: '5104', key: 'KEY-north-19d6c0', env: 'NORTH_API_KEY', base: '/v2/api/site/v2' },
] as const;
type Site = (typeof SITES)[number];

const PASSWORD = 'the same long passphrase for everyone here';

/**
 * What the rules say, written out here rather than taken from the code under test: every grant on the
 * site or on all sites counts; any role may look up cases (and so list them); only an owner or an editor
 * may create products and, by default, export cases.
 */
function mayDo(grants: readonly Grant[], siteId: string): Capability[] {
  const covering = grants.filter((grant) => grant.siteId === siteId || grant.siteId === ALL_SITES);
  const held: Capability[] = [];
  if (covering.length > 0) held.push('lookup');
  if (covering.some((grant) => grant.role === 'owner' || grant.role === 'editor')) held.push('create', 'export');
  return held;
}

const grant = fc.record({ siteId: fc.constantFrom<string>(ALL_SITES, ...SITES.map((site) => site.id)), role: fc.constantFrom(...ROLES) });
const person = fc.uniqueArray(grant, { selector: (g) => g.siteId, maxLength: 3 });
const identifier = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
const operation = fc.record({
  person: fc.nat(),
  site: fc.constantFrom(...SITES),
  call: fc.oneof(
    fc.record({ kind: fc.constant('lookup' as const), form: identifier, id: identifier }),
    fc.record({ kind: fc.constant('list' as const), form: identifier, page: fc.integer({ min: 1, max: 50 }) }),
    fc.record({ kind: fc.constant('products' as const), page: fc.integer({ min: 1, max: 50 }) }),
    fc.record({ kind: fc.constant('product' as const), id: fc.stringMatching(/^[1-9]\d{0,9}$/) }),
    fc.record({
      kind: fc.constant('create' as const),
      product: fc.record({ name: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,30}$/), enabled: fc.constantFrom('true', 'false') }),
    }),
  ),
});

const standIns = new Map<string, StandIn>();
let profileDir: string;
let profile: string;

beforeAll(async () => {
  for (const site of SITES) standIns.set(site.id, await recordingPlatform());
  profileDir = tempDir('site-admin-permissions-');
  profile = join(profileDir, 'site-profile.json');
  const sites = SITES.map((site) => ({
    id: site.id,
    name: site.name,
    platform: { baseUrl: `http://127.0.0.1:${standIns.get(site.id)!.port}${site.base}`, siteId: site.siteId, apiKeyEnv: site.env },
  }));
  writeFileSync(profile, JSON.stringify({ sites }));
});

afterAll(async () => {
  for (const standIn of standIns.values()) await standIn.close();
  rmSync(profileDir, { recursive: true, force: true });
});

const everythingReceived = () => [...standIns].flatMap(([site, standIn]) => standIn.received.map((request) => ({ site, ...request })));

describeEachEngine('the permission rules through the whole server', (_engine, freshDatabase) => {
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  let passwordHash: string;
  let people = 0;

  beforeAll(async () => {
    running = await startWholeServer(
      { SITE_PROFILE: profile, ...Object.fromEntries(SITES.map((site) => [site.env, site.key])) },
      { database: await freshDatabase() },
    );
    // One hash for everyone: Argon2id at OWASP's cost is the slow part, and the property is about grants.
    passwordHash = await hashPassword(PASSWORD);
  }, 60_000);
  afterAll(() => running.stop());

  /** A person with `grants`, signed in: the Cookie header of their session. */
  const signedIn = async (grants: readonly Grant[]) => {
    const { accounts } = running.site;
    people += 1;
    const email = `person-${people}@example.com`;
    const added = await accounts.people.add({ email, displayName: `Person ${people}`, passwordHash, now: accounts.now() });
    if (!added.ok) throw new Error(`${email} could not be added`);
    await accounts.people.setGrants(added.person.id, grants, accounts.now());
    const reply = await signInWithPassword(running.port, email, PASSWORD);
    const id = cookiesSet(reply).get(SESSION_COOKIE);
    if (reply.status !== 200 || !id) throw new Error(`${email} could not sign in: ${reply.status} ${reply.text}`);
    return `${SESSION_COOKIE}=${id}`;
  };

  it('forwards a call exactly when the grants allow it, to that site alone with its key; else 403 in the spec’s shape, and nothing is sent', async () => {
    let forwarded = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(person, { minLength: 1, maxLength: 3 }),
        fc.array(operation, { minLength: 1, maxLength: 6 }),
        async (grantsOf, operations) => {
          const sessions = [];
          for (const grants of grantsOf) sessions.push(await signedIn(grants));

          // /api/sites lists each person's sites, with what they may do there, and no other.
          for (const [index, grants] of grantsOf.entries()) {
            const listed = JSON.parse((await send(running.port, { path: '/api/sites', headers: { cookie: sessions[index]! } })).text) as {
              sites: { id: string; can: Capability[] }[];
            };
            const expected = SITES.flatMap((site) =>
              mayDo(grants, site.id).length > 0 ? [{ id: site.id, can: mayDo(grants, site.id) }] : [],
            );
            expect(listed.sites.map(({ id, can }) => ({ id, can }))).toEqual(expected);
          }

          for (const op of operations) {
            for (const standIn of standIns.values()) standIn.received.length = 0;
            const who = op.person % grantsOf.length;
            const site: Site = op.site;
            const { call } = op;
            const path =
              call.kind === 'lookup'
                ? `/forms/${call.form}/cases/${call.id}`
                : call.kind === 'list'
                  ? `/forms/${call.form}/cases?per_page=20&page=${call.page}`
                  : call.kind === 'products'
                    ? `/ecommerce/products?per_page=50&page=${call.page}&properties=name,slug,enabled`
                    : call.kind === 'product'
                      ? `/ecommerce/products/${call.id}`
                      : '/ecommerce/products/create';
            const body = call.kind === 'create' ? JSON.stringify(call.product) : undefined;
            const reply = await send(running.port, {
              method: call.kind === 'create' ? 'POST' : 'GET',
              path: `/api/s/${site.id}/site/v2${path}`,
              headers: {
                cookie: sessions[who]!,
                ...(call.kind === 'create' ? { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' } : {}),
              },
              body,
            });
            const held = mayDo(grantsOf[who]!, site.id);
            // A list needs what a lookup needs; reading the products what creating one needs.
            const wanted: Capability = call.kind === 'create' || call.kind === 'products' || call.kind === 'product' ? 'create' : 'lookup';
            if (held.includes(wanted)) {
              forwarded += 1;
              expect(reply.status, reply.text).toBe(200);
              expect(everythingReceived()).toEqual([
                expect.objectContaining({
                  site: site.id,
                  method: call.kind === 'create' ? 'POST' : 'GET',
                  url: `${site.base}${path}`,
                  body: body ?? '',
                }),
              ]);
              expect(everythingReceived()[0]!.headers).toMatchObject({ 'x-api-key': site.key, 'x-site-id': site.siteId });
            } else {
              refused += 1;
              expect(reply.status, reply.text).toBe(403);
              expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
              expect((JSON.parse(reply.text) as { message: string }).message).toBe(refusalMessage(site.name, held, wanted));
              // Our own refusal, told apart from a platform's 403 by the browser.
              expect(reply.headers['x-platform-status']).toBeUndefined();
              expect(everythingReceived()).toEqual([]);
            }
          }
        },
      ),
      fuzzRuns(40),
    );
    // Both outcomes were met often enough for the property to mean something.
    expect(forwarded).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  }, 120_000);

  it('shows support no catalogue: the products’ list, read and update are refused 403, and no platform hears of them', async () => {
    const session = await signedIn([{ siteId: ALL_SITES, role: 'support' }]);
    for (const standIn of standIns.values()) standIn.received.length = 0;
    const calls = [
      { method: 'GET', path: '/ecommerce/products?per_page=20' },
      { method: 'GET', path: '/ecommerce/products/1042' },
      { method: 'PUT', path: '/ecommerce/products/1042', body: JSON.stringify({ name: 'Renamed', enabled: 'true' }) },
    ];
    for (const call of calls) {
      const reply = await send(running.port, {
        method: call.method,
        path: `/api/s/summit/site/v2${call.path}`,
        headers: {
          cookie: session,
          'sec-fetch-site': 'same-origin',
          ...(call.body ? { 'content-type': 'application/json', 'if-match': `"sha256-${'0'.repeat(64)}"` } : {}),
        },
        body: call.body,
      });
      expect(reply.status, `${call.method} ${call.path}: ${reply.text}`).toBe(403);
      expect((JSON.parse(reply.text) as { message: string }).message).toBe(refusalMessage('Summit Outfitters', ['lookup'], 'create'));
    }
    expect(everythingReceived()).toEqual([]);
  });

  it('lets support list cases where they may look them up, and nowhere else: 403 there, and no platform hears of it', async () => {
    const session = await signedIn([{ siteId: 'summit', role: 'support' }]);
    for (const standIn of standIns.values()) standIn.received.length = 0;
    const list = (site: string) =>
      send(running.port, { path: `/api/s/${site}/site/v2/forms/21/cases?sort_order=desc&per_page=50`, headers: { cookie: session } });

    const allowed = await list('summit');
    expect(allowed.status, allowed.text).toBe(200);
    // Sent on as checked, in the list's own order of parameters.
    expect(everythingReceived().map(({ site, method, url }) => ({ site, method, url }))).toEqual([
      { site: 'summit', method: 'GET', url: '/shop/api/site/v2/forms/21/cases?per_page=50&sort_order=desc' },
    ]);

    for (const standIn of standIns.values()) standIn.received.length = 0;
    const refused = await list('harbour-linen');
    expect(refused.status, refused.text).toBe(403);
    expect(errorShapeProblems(403, refused.headers['content-type'], refused.text)).toEqual([]);
    expect((JSON.parse(refused.text) as { message: string }).message).toBe(refusalMessage('Harbour Linen', [], 'lookup'));
    expect(everythingReceived()).toEqual([]);
  });
});
