/**
 * The activity record's endpoints through the whole server, signed in: owners see everyone's entries,
 * others their own; filters, keyset pages, one entry with its detail, the chain's state, export as CSV
 * and JSON lines (formulae defused), and pruning that is itself recorded and leaves a chain that verifies.
 * On both engines: the record's queries (a person's entries, the filters, keyset pages, the export) are
 * proven on PostgreSQL here, not by running the Activity page's end-to-end test again on it.
 */
import http from 'node:http';
import { rmSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ACTIVITY_PATHS,
  activityEntrySchema,
  activityPageSchema,
  chainStateSchema,
  updateFollowUpsSchema,
} from '../../src/contract/activity';
import { createSiteAdminServer, type SiteAdminServer } from '../app';
import { hashPassword } from '../auth/password-hash';
import { loadConfig } from '../config';
import { describeEachEngine } from '../testing/postgres';
import { closeServer, listen, send, tempDir } from '../testing/test-helpers';
import type { NewEntry } from './activity-store';

const OWNER = { email: 'owner@example.com', password: 'a passphrase for the activity record' };
const SUPPORT = { email: 'sam@example.com', password: 'support passphrase for the record' };
const T = Date.UTC(2026, 10, 25, 9);

describeEachEngine('the activity record’s endpoints', (_engine, freshDatabase) => {
  let dataDir: string;
  let site: SiteAdminServer;
  let server: http.Server;
  let port: number;
  let ownerCookie: string;
  let supportCookie: string;
  let supportId: string;

  const signIn = async (who: { email: string; password: string }) => {
    const reply = await send(port, {
      method: 'POST',
      path: '/api/sign-in/password',
      body: JSON.stringify(who),
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    });
    expect(reply.status).toBe(200);
    const cookies = ([] as string[]).concat(reply.headers['set-cookie'] ?? []);
    return cookies.map((cookie) => cookie.split(';')[0]).join('; ');
  };
  const get = async (path: string, cookie?: string) => {
    const reply = await send(port, { path, headers: cookie ? { cookie } : {} });
    return { ...reply, json: () => JSON.parse(reply.text) as unknown };
  };

  beforeAll(async () => {
    dataDir = tempDir('site-admin-activity-api-');
    site = await createSiteAdminServer({
      ...loadConfig({ DATA_DIR: dataDir, LOG_REQUESTS: 'false', ADMIN_USER: OWNER.email, ADMIN_PASSWORD: OWNER.password }),
      database: await freshDatabase(),
    });
    server = http.createServer((req, res) => site.handle(req, res));
    port = await listen(server);
    const added = await site.accounts.people.add({
      email: SUPPORT.email,
      displayName: 'Sam',
      passwordHash: await hashPassword(SUPPORT.password),
      now: T,
    });
    if (!added.ok) throw new Error('could not add');
    supportId = added.person.id;
    await site.accounts.people.setGrants(supportId, [{ siteId: '*', role: 'support' }], T);
    const sam = { kind: 'person' as const, id: supportId, name: 'Sam' };
    const entries: NewEntry[] = [];
    for (let n = 1; n <= 30; n += 1) {
      entries.push({
        at: T + n * 1000,
        actor: sam,
        siteId: 'main',
        action: 'case.lookup',
        target: { form: '3', case: String(n) },
        outcome: 'found',
        status: 200,
      });
    }
    entries.push({
      at: T + 40_000,
      actor: { kind: 'person', id: 'someone-else', name: 'Olu' },
      siteId: 'main',
      action: 'product.create',
      target: { name: '=HYPERLINK("x") Linen\nthrow', slug: 'linen-throw' },
      outcome: 'sent',
      detail: { body: '{"name":"Linen throw"}' },
    });
    await site.activity.append(...entries);
    ownerCookie = await signIn(OWNER);
    supportCookie = await signIn(SUPPORT);
  });

  afterAll(async () => {
    await closeServer(server);
    await site.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives an owner everyone’s entries, newest first, in keyset pages', async () => {
    const first = (await get('/api/activity?limit=10', ownerCookie)).json() as { entries: { seq: number }[]; next: number | null };
    expect(first.entries).toHaveLength(10);
    // The two sign-ins of beforeAll are the newest.
    expect(first.entries.map((entry) => entry.seq).slice(0, 3)).toEqual([33, 32, 31]);
    const second = (await get(`/api/activity?limit=10&before=${first.next ?? 0}`, ownerCookie)).json() as { entries: { seq: number }[] };
    expect(second.entries[0]?.seq).toBe(23);
  });

  it('answers in the shapes of the contract the Activity page parses them with', async () => {
    const page = activityPageSchema.safeParse((await get('/api/activity?limit=50', ownerCookie)).json());
    expect(page.success && page.data.entries).toHaveLength(33);
    expect(activityEntrySchema.safeParse((await get('/api/activity/31', ownerCookie)).json()).success).toBe(true);
    expect(chainStateSchema.safeParse((await get('/api/activity/verify', ownerCookie)).json()).success).toBe(true);
  });

  it('gives anyone else their own entries only, whatever filter they send', async () => {
    const mine = (await get(`/api/activity?limit=100&person=someone-else`, supportCookie)).json() as {
      entries: { actor: { id?: string } }[];
    };
    expect(mine.entries.length).toBeGreaterThan(0);
    expect(mine.entries.every((entry) => entry.actor.id === supportId)).toBe(true);
    expect((await get('/api/activity/31', supportCookie)).status).toBe(404);
    expect(((await get('/api/activity/31', ownerCookie)).json() as { detail: unknown }).detail).toEqual({ body: '{"name":"Linen throw"}' });
  });

  it('filters by action, time and search, and refuses a filter it cannot read', async () => {
    const creates = (await get('/api/activity?action=product.create', ownerCookie)).json() as { entries: { seq: number }[] };
    expect(creates.entries.map((entry) => entry.seq)).toEqual([31]);
    const bySlug = (await get('/api/activity?q=linen-throw', ownerCookie)).json() as { entries: { seq: number }[] };
    expect(bySlug.entries.map((entry) => entry.seq)).toEqual([31]);
    const byName = (await get('/api/activity?q=Linen%20thr', ownerCookie)).json() as { entries: { seq: number }[] };
    expect(byName.entries.map((entry) => entry.seq)).toEqual([31]);
    const byCase = (await get('/api/activity?q=7', ownerCookie)).json() as { entries: { target: { case: string } }[] };
    expect(byCase.entries.map((entry) => entry.target.case)).toEqual(['7']);
    const window = (await get(`/api/activity?from=${T + 5_000}&to=${T + 8_000}`, ownerCookie)).json() as { entries: unknown[] };
    expect(window.entries).toHaveLength(3);
    expect((await get('/api/activity?from=yesterday', ownerCookie)).status).toBe(400);
  });

  it('exports what the filter shows as CSV, with formulae defused, and as JSON lines', async () => {
    const csv = await get('/api/activity/export?format=csv', ownerCookie);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="site-admin-activity-.*\.csv"/);
    const rows = Papa.parse<string[]>(csv.text.trim()).data;
    expect(rows[0]?.slice(0, 3)).toEqual(['seq', 'time_utc', 'person']);
    expect(rows.length).toBeGreaterThanOrEqual(1 + 33);
    // Defused even when the cell holds a line break (papaparse's own pattern stops at one).
    expect(rows.find((row) => row[0] === '31')?.[6]).toBe(`'=HYPERLINK("x") Linen\nthrow`);
    const jsonl = await get('/api/activity/export?format=jsonl&action=case.lookup', supportCookie);
    const lines = jsonl.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string });
    expect(lines).toHaveLength(30);
    expect(lines.every((line) => line.action === 'case.lookup')).toBe(true);
    expect((await get('/api/activity/export?format=xlsx', ownerCookie)).status).toBe(400);
  });

  it('records sign-ins with the way in, failed ones without what was typed, sign-outs and expiries', async () => {
    const signIns = (await get('/api/activity?action=sign-in', ownerCookie)).json() as { entries: { actor: { name?: string } }[] };
    expect(signIns.entries.map((entry) => entry.actor.name)).toEqual(['Sam', 'owner']);
    const wrong = async (email: string, password: string) =>
      send(port, {
        method: 'POST',
        path: '/api/sign-in/password',
        body: JSON.stringify({ email, password }),
        headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      });
    expect((await wrong(SUPPORT.email, 'not the passphrase of sam')).status).toBe(401);
    expect((await wrong('my secret passphrase typed here', 'x')).status).toBe(401);
    const failed = (await get('/api/activity?action=sign-in.failed&limit=2', ownerCookie)).json() as { entries: Record<string, unknown>[] };
    expect(failed.entries[1]).toMatchObject({ actor: { kind: 'person', name: 'Sam' }, outcome: 'refused' });
    expect(failed.entries[0]).toMatchObject({ actor: { kind: 'anonymous' } });
    expect(JSON.stringify(await site.database.db.selectFrom('activity').selectAll().execute())).not.toContain('my secret passphrase');

    const extra = await signIn(SUPPORT);
    expect(
      (await send(port, { method: 'POST', path: '/api/sign-out', headers: { cookie: extra, origin: `http://127.0.0.1:${port}` } })).status,
    ).toBe(204);
    const out = (await get('/api/activity?action=sign-out', ownerCookie)).json() as { entries: { actor: { name?: string } }[] };
    expect(out.entries[0]?.actor.name).toBe('Sam');
  });

  it('records an owner’s change to a person, with what it was before and after', async () => {
    const reply = await send(port, {
      method: 'PUT',
      path: `/api/people/${supportId}/grants`,
      body: JSON.stringify({ grants: [{ siteId: 'main', role: 'editor' }] }),
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}`, cookie: ownerCookie },
    });
    expect(reply.status).toBe(200);
    const changes = (await get('/api/activity?action=person.changed&limit=1', ownerCookie)).json() as { entries: { seq: number }[] };
    const entry = (await get(`/api/activity/${changes.entries[0]?.seq ?? 0}`, ownerCookie)).json();
    expect(entry).toMatchObject({
      actor: { kind: 'person', name: 'owner' },
      target: { name: 'Sam' },
      detail: { change: 'grants', before: [{ siteId: '*', role: 'support' }], after: [{ siteId: 'main', role: 'editor' }] },
    });
    // Sam's session got a new id with the new grants; sign Sam in again for what follows.
    supportCookie = await signIn(SUPPORT);
  });

  it('says what became of a product update: its outcome and its reverts, each only to those who may read it', async () => {
    const sam = { kind: 'person' as const, id: supportId, name: 'Sam' };
    const olu = { kind: 'person' as const, id: 'someone-else', name: 'Olu' };
    const base = { at: T + 50_000, siteId: 'main', target: { name: 'Walnut tray', slug: 'walnut-tray' } };
    const update = (actor: NewEntry['actor'], reverts?: number): NewEntry => ({
      ...base,
      actor,
      action: 'product.update',
      outcome: 'sent',
      detail: {
        product: '1042',
        body: '{"name":"Walnut tray","enabled":"true"}',
        before: '{"id":"1042"}',
        ...(reverts ? { reverts } : {}),
      },
    });
    const outcome = (actor: NewEntry['actor'], of: number): NewEntry => ({
      ...base,
      actor,
      action: 'product.update.outcome',
      refersTo: of,
      outcome: 'updated',
      status: 200,
      detail: { product: '1042', answer: '{}' },
    });
    const [made] = await site.activity.append(update(sam));
    const seq = Number(made?.seq);
    const [, byOlu] = await site.activity.append(outcome(sam, seq), update(olu, seq));
    const [, bySam] = await site.activity.append(outcome(olu, Number(byOlu?.seq)), update(sam, seq));
    const path = ACTIVITY_PATHS.updateFollowUps.replace(':seq', String(seq));

    // The update's detail reaches the browser as it was kept: the body sent and the product before, as text.
    expect(((await get(`/api/activity/${seq}`, supportCookie)).json() as { detail: unknown }).detail).toEqual({
      product: '1042',
      body: '{"name":"Walnut tray","enabled":"true"}',
      before: '{"id":"1042"}',
    });
    const forOwner = updateFollowUpsSchema.parse((await get(path, ownerCookie)).json());
    expect(forOwner.outcome).toMatchObject({ seq: seq + 1, outcome: 'updated', actor: { name: 'Sam' } });
    expect(forOwner.reverts.map((revert) => [revert.update.seq, revert.outcome?.outcome ?? null])).toEqual([
      [Number(byOlu?.seq), 'updated'],
      [Number(bySam?.seq), null],
    ]);
    // Sam sees his own update's outcome and his own revert; Olu's revert is not his to read.
    const forSam = updateFollowUpsSchema.parse((await get(path, supportCookie)).json());
    expect(forSam.outcome?.seq).toBe(seq + 1);
    expect(forSam.reverts.map((revert) => revert.update.seq)).toEqual([Number(bySam?.seq)]);
    // Olu's update, another entry than an update, and what is not a number: nothing to read.
    expect((await get(ACTIVITY_PATHS.updateFollowUps.replace(':seq', String(byOlu?.seq)), supportCookie)).status).toBe(404);
    expect((await get(ACTIVITY_PATHS.updateFollowUps.replace(':seq', '31'), ownerCookie)).status).toBe(404);
    const odd = await get(ACTIVITY_PATHS.updateFollowUps.replace(':seq', 'x'), ownerCookie);
    expect(odd.status).toBe(404);
    expect(odd.json()).toMatchObject({ message: expect.stringContaining('no product update') as unknown });
  });

  it('says whether the chain verifies, and that it does not once an entry is changed', async () => {
    expect((await get('/api/activity/verify', supportCookie)).json()).toMatchObject({ ok: true, first: 1 });
    const entry = await site.activity.get(3);
    await site.database.db.updateTable('activity').set({ outcome: 'not-found' }).where('seq', '=', 3).execute();
    expect((await get('/api/activity/verify', supportCookie)).json()).toMatchObject({ ok: false, brokenAt: 3 });
    await site.database.db
      .updateTable('activity')
      .set({ outcome: entry?.outcome ?? '' })
      .where('seq', '=', 3)
      .execute();
    expect((await get('/api/activity/verify', supportCookie)).json()).toMatchObject({ ok: true, first: 1 });
  });

  it('prunes old entries in batches, records it, and verifies from the first kept entry', async () => {
    const removed = await site.activity.prune(T + 10_500, T + 100_000, 4);
    expect(removed).toBe(10);
    const newest = (await get('/api/activity?limit=1', ownerCookie)).json() as { entries: { action: string }[] };
    expect(newest.entries[0]?.action).toBe('activity.pruned');
    expect((await get('/api/activity/verify', ownerCookie)).json()).toMatchObject({ ok: true, first: 11 });
    expect((await get('/api/activity')).status).toBe(401);
  });
});
