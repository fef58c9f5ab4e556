/**
 * Site profiles and the team's slugs in the activity record, through the whole server on each engine: the
 * server's own check of its profile at start (`profile.loaded`: the sites and the file's SHA-256, never a
 * key), a person's check in the Settings page (`profile.check`: the outcome, a count and the site ids,
 * never the profile), and the slugs created on a site, each with who created it and when.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fullProduct } from '../../src/contract/fixtures';
import type { TeamSlugs } from '../../src/contract/activity';
import { describeEachEngine } from '../testing/postgres';
import { addPeople, cookiesSet, REPO_ROOT, send, signInWithPassword, startWholeServer } from '../testing/test-helpers';

const PROFILE = join(REPO_ROOT, 'server', 'site-profile.example.json');
const OWNER = { email: 'owner@example.com', password: 'owner passphrase for the profile record', displayName: 'Olive Owner' };
const EDITOR = { email: 'ed@example.com', password: 'editor passphrase for the profile record', displayName: 'Ed Itor' };

describeEachEngine('profile checks and the team’s slugs in the activity record', (_engine, freshDatabase) => {
  let whole: Awaited<ReturnType<typeof startWholeServer>>;
  let ownerCookie: string;
  let editorCookie: string;

  const signIn = async (who: { email: string; password: string }) => {
    const reply = await signInWithPassword(whole.port, who.email, who.password);
    expect(reply.status, reply.text).toBe(200);
    return [...cookiesSet(reply)].map(([name, value]) => `${name}=${value}`).join('; ');
  };
  const report = (cookie: string | undefined, body: unknown) =>
    send(whole.port, {
      method: 'POST',
      path: '/api/activity/profile-checks',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  const rowsOf = (action: string) =>
    whole.site.database.db.selectFrom('activity').selectAll().where('action', '=', action).orderBy('seq').execute();

  beforeAll(async () => {
    whole = await startWholeServer({ SITE_PROFILE: PROFILE }, { database: await freshDatabase(), prefix: 'site-admin-profile-record-' });
    await addPeople(whole.site, [
      { ...OWNER, grants: [{ siteId: '*', role: 'owner' }] },
      { ...EDITOR, grants: [{ siteId: 'harbour-linen', role: 'editor' }] },
    ]);
    ownerCookie = await signIn(OWNER);
    editorCookie = await signIn(EDITOR);
  }, 60_000);

  afterAll(async () => {
    await whole.stop();
  });

  it('records the profile the server started on: its sites and the SHA-256 of its file, never a key', async () => {
    const [loaded] = await rowsOf('profile.loaded');
    expect(loaded).toMatchObject({ actor_kind: 'anonymous', outcome: 'ok', site_id: null });
    expect(JSON.parse(loaded?.detail ?? '{}')).toEqual({
      via: 'server start',
      file: PROFILE,
      sha256: createHash('sha256').update(readFileSync(PROFILE)).digest('hex'),
      sites: [
        { id: 'harbour-linen', platform: 'sandbox' },
        { id: 'summit-outfitters', platform: 'sandbox' },
      ],
    });
    expect(loaded?.detail).not.toMatch(/apiKey|key/i);
  });

  it('records a person’s check with its outcome, count and sites; refuses a report that carries more, or comes from nobody', async () => {
    expect((await report(editorCookie, { outcome: 'problems', problems: 2, sites: ['north', 'south'] })).status).toBe(204);
    expect((await report(ownerCookie, { outcome: 'ok', problems: 0, sites: ['harbour-linen'] })).status).toBe(204);
    const checks = await rowsOf('profile.check');
    expect(checks.map((row) => [row.person_name, row.outcome, JSON.parse(row.detail ?? '{}')])).toEqual([
      ['Ed Itor', 'problems', { problems: 2, sites: ['north', 'south'] }],
      ['Olive Owner', 'ok', { problems: 0, sites: ['harbour-linen'] }],
    ]);

    const carrying = await report(ownerCookie, { outcome: 'ok', problems: 0, sites: [], profile: { sites: [] } });
    expect(carrying.status).toBe(400);
    expect(carrying.text).toContain('profile');
    expect((await report(ownerCookie, { outcome: 'ok', problems: 3, sites: [] })).status).toBe(400);
    expect((await report(ownerCookie, { outcome: 'fine', problems: 0, sites: [] })).status).toBe(400);
    expect((await report(ownerCookie, { outcome: 'ok', problems: 0, sites: ['x'.repeat(101)] })).status).toBe(400);
    expect((await report(undefined, { outcome: 'ok', problems: 0, sites: [] })).status).toBe(401);
    expect(await rowsOf('profile.check')).toHaveLength(2);

    // The person sees their own check on the Activity page's list.
    const own = JSON.parse(
      (await send(whole.port, { path: '/api/activity?action=profile.check', headers: { cookie: editorCookie } })).text,
    ) as { entries: { actor: { name?: string }; outcome: string }[] };
    expect(own.entries.map((entry) => [entry.actor.name, entry.outcome])).toEqual([['Ed Itor', 'problems']]);
    expect((await whole.site.activity.verify()).ok).toBe(true);
  });

  it('gives the slugs created on a site with who created each and when, to anyone who may use the site', async () => {
    const created = await send(whole.port, {
      method: 'POST',
      path: '/api/s/harbour-linen/site/v2/ecommerce/products/create',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', cookie: ownerCookie },
      body: JSON.stringify(fullProduct('linen-by-olive')),
    });
    expect(created.status, created.text).toBe(200);
    const [outcome] = (await rowsOf('product.create.outcome')).slice(-1);

    const slugs = JSON.parse(
      (await send(whole.port, { path: '/api/created-products/slugs?site=harbour-linen', headers: { cookie: editorCookie } })).text,
    ) as TeamSlugs;
    expect(slugs).toEqual({
      slugs: ['linen-by-olive'],
      created: [{ slug: 'linen-by-olive', by: 'Olive Owner', at: Number(outcome?.at) }],
    });
    // The editor has no role on the other shop: not its slugs.
    expect(
      (await send(whole.port, { path: '/api/created-products/slugs?site=summit-outfitters', headers: { cookie: editorCookie } })).status,
    ).toBe(403);
  });
});
