/**
 * The export of a form's cases through the whole server, on both engines: against the sandbox (form 21's
 * 340 warranty claims of the example profile's first site, and more made with /__sandbox/cases/generate),
 * the CSV and the workbook hold every case of the filtered list with the columns the profile names, the
 * team's filters apply, and each export is one entry of the record with its count and case ids. Against a
 * recording stand-in platform: support is refused by default and the platform hears nothing, as for bad
 * parameters; an owner allowing support to export on one site takes effect at that person's next request,
 * and is recorded; a list over the bound is refused after one page.
 */
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_SITES, refusalMessage } from '../../src/contract/access';
import { ROLE_OVERRIDES_PATH } from '../../src/contract/people-paths';
import { inboxPath, INBOX_PATHS } from '../../src/contract/case-work';
import { roleCapabilitiesViewSchema } from '../../src/contract/people';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { seedWarrantyClaims, WARRANTY_FORM, type SeedCase } from '../sandbox/seed';
import { describeEachEngine } from '../testing/postgres';
import { recordingPlatform, type RecordingPlatform } from '../testing/recording-platform';
import {
  addPeople,
  cookiesSet,
  errorShapeProblems,
  refuseActivityEntries,
  REPO_ROOT,
  send,
  signInWithPassword,
  startWholeServer,
  tempDir,
  waitFor,
} from '../testing/test-helpers';
import { EXPORT_MAX_CASES } from './case-export';

const PASSWORD = 'a long passphrase for the export tests';
const EXAMPLE_PROFILE = join(REPO_ROOT, 'server/site-profile.example.json');
const SITE = 'harbour-linen';
const FIELD_LABELS = ['Product', 'Purchase date', 'Fault', 'Serial number', 'Photos', 'Resolution wanted', 'Amount claimed'];

type Running = Awaited<ReturnType<typeof startWholeServer>>;

async function signedIn(running: Running, email: string): Promise<string> {
  const reply = await signInWithPassword(running.port, email, PASSWORD);
  const id = cookiesSet(reply).get(SESSION_COOKIE);
  if (reply.status !== 200 || !id) throw new Error(`${email} could not sign in: ${reply.status} ${reply.text}`);
  return `${SESSION_COOKIE}=${id}`;
}

const exportPath = (site: string, form: string, query: string) => `${inboxPath(INBOX_PATHS.export, { site, form })}${query}`;

const csvRows = (text: string) => {
  expect(text.startsWith('\ufeff')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
};

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The record's `cases.export` entries, newest first, with their detail. */
async function exportEntries(running: Running) {
  const rows = await running.site.activity.list({ action: 'cases.export' }, { limit: 50 });
  return rows.map((row) => ({
    siteId: row.site_id,
    form: row.form_id,
    person: row.person_id,
    detail: JSON.parse(row.detail ?? 'null') as {
      format: string;
      count: number;
      read: number;
      cases: string[];
      team: string[];
      filter: unknown;
    },
  }));
}

describeEachEngine('exporting a form’s cases against the sandbox', (_engine, freshDatabase) => {
  let running: Running;
  let ownerCookie: string;
  let ownerId: string;
  const claims: SeedCase[] = seedWarrantyClaims();
  /** Newest first, as the export is asked for below. */
  const newest = [...claims].sort((a, b) => Number(b.record.created_at) - Number(a.record.created_at));

  beforeAll(async () => {
    running = await startWholeServer({ SITE_PROFILE: EXAMPLE_PROFILE }, { database: await freshDatabase() });
    const ids = await addPeople(running.site, [
      { email: 'olive@example.com', displayName: 'Olive Owner', password: PASSWORD, grants: [{ siteId: ALL_SITES, role: 'owner' }] },
    ]);
    ownerId = ids[0] ?? '';
    ownerCookie = await signedIn(running, 'olive@example.com');
  }, 60_000);
  afterAll(() => running.stop());

  const get = (path: string, cookie = ownerCookie) => send(running.port, { path, headers: { cookie }, timeoutMs: 60_000 });

  it('writes every case of the form as CSV, newest first, with the profile’s labels, status and assignee, and records it', async () => {
    const reply = await get(exportPath(SITE, WARRANTY_FORM, '?format=csv&sort_type=created_at&sort_order=desc'));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(reply.headers['content-disposition']).toBe(
      `attachment; filename="warranty-claims-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const [header, ...rows] = csvRows(reply.text);
    expect(header).toEqual(['Case id', 'Received (UTC)', ...FIELD_LABELS, 'name', 'email', 'user_id', 'order_id', 'Status', 'Assignee']);
    expect(rows).toHaveLength(340);
    expect(rows.map((row) => row[0])).toEqual(newest.map((claim) => claim.id));
    const first = newest[0]!;
    const properties = first.record.properties as Record<string, unknown>;
    expect(rows[0]).toEqual([
      first.id,
      iso(Number(first.record.created_at)),
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => {
        const value = properties[`form_field_21_${n}`];
        return Array.isArray(value) ? value.join('\n') : String(value);
      }),
      String(properties.name),
      String(properties.email),
      String(properties.user_id),
      String(properties.order_id),
      'New',
      '',
    ]);

    const [entry] = await exportEntries(running);
    expect(entry).toMatchObject({ siteId: SITE, form: WARRANTY_FORM, person: ownerId });
    expect(entry?.detail).toMatchObject({ format: 'csv', count: 340, read: 340, team: [], filter: null });
    expect(entry?.detail.cases).toEqual(newest.map((claim) => claim.id));
  });

  it('writes the same list as an Excel workbook, numbers as numbers and text as text', async () => {
    const reply = await send(running.port, {
      path: exportPath(SITE, WARRANTY_FORM, '?format=xlsx&sort_type=created_at&sort_order=asc'),
      headers: { cookie: ownerCookie },
      timeoutMs: 60_000,
    });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(reply.headers['content-disposition']).toMatch(/^attachment; filename="warranty-claims-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    // `send` reads text; the workbook is read again as bytes.
    const bytes = await fetch(
      `http://127.0.0.1:${running.port}${exportPath(SITE, WARRANTY_FORM, '?format=xlsx&sort_type=created_at&sort_order=asc')}`,
      {
        headers: { cookie: ownerCookie },
      },
    ).then((answer) => answer.arrayBuffer());
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Warranty claims');
    expect(sheet.rowCount).toBe(341);
    const oldest = [...newest].reverse();
    expect(sheet.getRow(1).getCell(3).value).toBe('Product');
    for (const [index, claim] of oldest.entries()) {
      const row = sheet.getRow(index + 2);
      expect(row.getCell(1).value).toBe(claim.id);
      expect(row.getCell(2).value).toBe(iso(Number(claim.record.created_at)));
    }
    const amount = (oldest[0]!.record.properties as Record<string, unknown>).form_field_21_7;
    expect(sheet.getRow(2).getCell(9).value).toBe(amount);
    const entries = await exportEntries(running);
    expect(entries.slice(0, 2).map((entry) => entry.detail.format)).toEqual(['xlsx', 'xlsx']);
  });

  it('applies the list’s filter on the platform, and the team’s filters itself', async () => {
    const refunds = newest.filter((claim) => (claim.record.properties as Record<string, unknown>).form_field_21_6 === 'Refund');
    expect(refunds.length).toBeGreaterThan(50);
    const filter = encodeURIComponent(JSON.stringify({ form_field_21_6: 'Refund' }));
    const filtered = await get(exportPath(SITE, WARRANTY_FORM, `?format=csv&sort_type=created_at&sort_order=desc&filter=${filter}`));
    expect(filtered.status).toBe(200);
    const rows = csvRows(filtered.text).slice(1);
    expect(rows.map((row) => row[0])).toEqual(refunds.map((claim) => claim.id));
    expect(new Set(rows.map((row) => row[7]))).toEqual(new Set(['Refund']));

    // The team's work: three refunds assigned to the owner (one of them done), two other cases done.
    const { db } = running.site.database;
    const [mineOpen1, mineOpen2, mineDone] = refunds.map((claim) => claim.id);
    const othersDone = newest.filter((claim) => !refunds.includes(claim)).slice(0, 2);
    const work = (caseId: string, status: string, assignee: string | null) => ({
      site_id: SITE,
      form_id: WARRANTY_FORM,
      case_id: caseId,
      status,
      assignee_id: assignee,
      updated_at: Date.now(),
      updated_by_id: ownerId,
      updated_by_name: 'Olive Owner',
    });
    await db
      .insertInto('case_work')
      .values([
        work(mineOpen1!, 'open', ownerId),
        work(mineOpen2!, 'waiting', ownerId),
        work(mineDone!, 'done', ownerId),
        ...othersDone.map((claim) => work(claim.id, 'done', null)),
      ])
      .execute();

    const mine = csvRows((await get(exportPath(SITE, WARRANTY_FORM, '?sort_type=created_at&sort_order=desc&team=mine'))).text).slice(1);
    expect(mine.map((row) => [row[0], row.at(-2), row.at(-1)])).toEqual([
      [mineOpen1, 'Open', 'Olive Owner'],
      [mineOpen2, 'Waiting on customer', 'Olive Owner'],
      [mineDone, 'Done', 'Olive Owner'],
    ]);
    const mineOpen = csvRows(
      (await get(exportPath(SITE, WARRANTY_FORM, `?sort_type=created_at&sort_order=desc&team=mine,open&filter=${filter}`))).text,
    ).slice(1);
    expect(mineOpen.map((row) => row[0])).toEqual([mineOpen1, mineOpen2]);
    const open = csvRows((await get(exportPath(SITE, WARRANTY_FORM, '?team=open'))).text).slice(1);
    expect(open).toHaveLength(340 - 3);
    expect(open.map((row) => row[0])).not.toContain(othersDone[0]!.id);

    // New to the owner: received since their "new" began, and not seen.
    const since = Number(newest[9]!.record.created_at) * 1000;
    await db
      .insertInto('inbox_watches')
      .values({ site_id: SITE, form_id: WARRANTY_FORM, person_key: ownerId, since, asked_at: Date.now() })
      .execute();
    await db
      .insertInto('case_seen')
      .values(
        [newest[0]!, newest[4]!].map((claim) => ({
          site_id: SITE,
          form_id: WARRANTY_FORM,
          person_key: ownerId,
          case_id: claim.id,
          seen_at: Date.now(),
        })),
      )
      .execute();
    const fresh = csvRows((await get(exportPath(SITE, WARRANTY_FORM, '?sort_type=created_at&sort_order=desc&team=new'))).text).slice(1);
    expect(fresh.map((row) => row[0])).toEqual(
      newest
        .slice(0, 10)
        .filter((_, index) => index !== 0 && index !== 4)
        .map((claim) => claim.id),
    );
    const [entry] = await exportEntries(running);
    expect(entry?.detail).toMatchObject({ team: ['new'], count: 8, read: 340 });
  });

  it('reads every page of a larger form, 500 at a time, until the list ends', async () => {
    const generated = await fetch(`${running.site.sandbox!.origin}/__sandbox/cases/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
      body: JSON.stringify({ form: '40', count: 1234 }),
    });
    expect(generated.status).toBe(200);
    const reply = await get(exportPath(SITE, '40', '?format=csv&sort_type=id&sort_order=asc'));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-disposition']).toMatch(/filename="form-40-\d{4}-\d{2}-\d{2}\.csv"/);
    const rows = csvRows(reply.text);
    // No labels in the profile for form 40: its fields by key, in the order first met.
    expect(rows[0]?.slice(2, 5)).toEqual(['name', 'email', 'user_id']);
    const ids = rows.slice(1).map((row) => Number(row[0]));
    expect(ids).toHaveLength(1234);
    expect(new Set(ids).size).toBe(1234);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('writes an empty list (the platform’s 404) as the header alone, and records it', async () => {
    const reply = await get(exportPath(SITE, '99', '?format=csv'));
    expect(reply.status).toBe(200);
    expect(csvRows(reply.text)).toEqual([['Case id', 'Received (UTC)', 'Status', 'Assignee']]);
    const [entry] = await exportEntries(running);
    expect(entry).toMatchObject({ form: '99', detail: { count: 0, cases: [] } });
  });
});

/** A case as the stand-in platform answers it. */
const standInCase = (id: number, extra: Record<string, unknown> = {}) => ({
  id: String(id),
  name: 'form_5',
  form_name: 'Feedback',
  created_at: 1_780_000_000 + id,
  properties: { name: `Person ${id}`, email: `p${id}@example.com`, ...extra },
});

describeEachEngine('who may export, against a recording stand-in platform', (engine, freshDatabase) => {
  let platform: RecordingPlatform;
  let running: Running;
  let profileDir: string;
  let profile: string;
  let cookies: Record<'owner' | 'support' | 'editor', string>;
  /** What the stand-in answers to a list; the default: two cases, one of them starting like a formula. */
  let answer: (url: URL) => { status: number; body: string };
  const twoCases = () => ({
    status: 200,
    body: JSON.stringify({
      results: [standInCase(2, { comment: '=HYPERLINK("http://evil.example","click")' }), standInCase(1, { comment: '-2+3\nsecond line' })],
      total_entries: 2,
      total_pages: 1,
      current_page: 1,
      per_page: 500,
    }),
  });

  beforeAll(async () => {
    platform = await recordingPlatform((request) => answer(new URL(request.url, 'http://x')));
    profileDir = tempDir('site-admin-export-profile-');
    profile = join(profileDir, 'site-profile.json');
    const base = `http://127.0.0.1:${platform.port}/api/site/v2`;
    writeFileSync(
      profile,
      JSON.stringify({
        sites: [
          {
            id: 'north',
            name: 'North Shop',
            platform: { baseUrl: base, siteId: '7001', apiKeyEnv: 'NORTH_KEY' },
            forms: { '5': { name: 'Feedback' } },
          },
          { id: 'south', name: 'South Shop', platform: { baseUrl: base, siteId: '7002', apiKeyEnv: 'SOUTH_KEY' } },
        ],
      }),
    );
    running = await startWholeServer(
      { SITE_PROFILE: profile, NORTH_KEY: 'KEY-north', SOUTH_KEY: 'KEY-south' },
      { database: await freshDatabase() },
    );
    await addPeople(running.site, [
      { email: 'owner@example.com', displayName: 'Olive', password: PASSWORD, grants: [{ siteId: ALL_SITES, role: 'owner' }] },
      { email: 'support@example.com', displayName: 'Sam', password: PASSWORD, grants: [{ siteId: ALL_SITES, role: 'support' }] },
      { email: 'editor@example.com', displayName: 'Eddie', password: PASSWORD, grants: [{ siteId: 'north', role: 'editor' }] },
    ]);
    cookies = {
      owner: await signedIn(running, 'owner@example.com'),
      support: await signedIn(running, 'support@example.com'),
      editor: await signedIn(running, 'editor@example.com'),
    };
  }, 60_000);
  afterAll(async () => {
    await running.stop();
    await platform.close();
    rmSync(profileDir, { recursive: true, force: true });
  });

  const get = (path: string, cookie: string) => send(running.port, { path, headers: { cookie } });
  const put = (body: unknown, cookie: string) =>
    send(running.port, {
      method: 'PUT',
      path: ROLE_OVERRIDES_PATH,
      headers: { cookie, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(body),
    });
  const sitesOf = async (cookie: string) =>
    (JSON.parse((await get('/api/sites', cookie)).text) as { sites: { id: string; can: string[] }[] }).sites.map((site) => [
      site.id,
      site.can,
    ]);

  it('refuses support by default (403, in the spec’s shape) and asks the platform nothing', async () => {
    answer = twoCases;
    platform.received.length = 0;
    const reply = await get(exportPath('north', '5', '?format=csv'), cookies.support);
    expect(reply.status).toBe(403);
    expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
    expect((JSON.parse(reply.text) as { message: string }).message).toBe(refusalMessage('North Shop', ['lookup'], 'export'));
    expect(platform.received).toEqual([]);
    expect(await sitesOf(cookies.support)).toEqual([
      ['north', ['lookup']],
      ['south', ['lookup']],
    ]);
  });

  it('refuses an export another site’s page started (Sec-Fetch-Site: cross-site) and asks the platform nothing', async () => {
    answer = twoCases;
    platform.received.length = 0;
    const reply = await send(running.port, {
      path: exportPath('north', '5', '?format=csv'),
      headers: { cookie: cookies.owner, 'sec-fetch-site': 'cross-site' },
    });
    expect(reply.status).toBe(403);
    expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
    expect(platform.received).toEqual([]);
  });

  it.each([
    ['a format it does not write', '?format=pdf', 'format'],
    ['an unknown team filter', '?team=mine,everyone', 'team'],
    ['a page of its own', '?page=2', 'page'],
    ['a page size', '?per_page=50', 'per_page'],
    ['a filter that is not JSON', '?filter=%7Bnope', 'filter'],
    ['a filter with an unknown operator', `?filter=${encodeURIComponent('{"email":{"like":"a"}}')}`, 'filter.email'],
    ['a sort the list does not know', '?sort_type=email', 'sort_type'],
    ['a parameter the list does not take', '?format=csv&limit=5', 'limit'],
    ['a format given twice', '?format=csv&format=xlsx', 'format'],
  ])('refuses %s with 400 naming the field, and asks the platform nothing', async (_what, query, field) => {
    platform.received.length = 0;
    const reply = await get(exportPath('north', '5', query), cookies.owner);
    expect(reply.status, reply.text).toBe(400);
    expect(errorShapeProblems(400, reply.headers['content-type'], reply.text)).toEqual([]);
    const { details } = JSON.parse(reply.text) as { details: { field: string }[] };
    expect(details.map((detail) => detail.field)).toContain(field);
    expect(platform.received).toEqual([]);
  });

  it('makes cells that start like a formula inert in the CSV, and asks the platform with the list’s own query', async () => {
    answer = twoCases;
    platform.received.length = 0;
    const filter = JSON.stringify({ email: { contains: 'example' } });
    const reply = await get(
      exportPath('north', '5', `?format=csv&sort_type=created_at&sort_order=desc&filter=${encodeURIComponent(filter)}`),
      cookies.owner,
    );
    expect(reply.status, reply.text).toBe(200);
    const rows = csvRows(reply.text);
    expect(rows[0]).toEqual(['Case id', 'Received (UTC)', 'name', 'email', 'comment', 'Status', 'Assignee']);
    expect(rows[1]?.[4]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(rows[2]?.[4]).toBe(`'-2+3\nsecond line`);
    expect(platform.received.map((request) => request.url)).toEqual([
      `/api/site/v2/forms/5/cases?per_page=500&page=1&sort_type=created_at&sort_order=desc&filter=${encodeURIComponent(filter)}`,
    ]);
    expect(platform.received[0]?.headers).toMatchObject({ 'x-api-key': 'KEY-north', 'x-site-id': '7001' });
  });

  it('takes an owner’s allowing support to export on one site at that person’s next request, and records it', async () => {
    answer = twoCases;
    // Before: the support person has been answered from the memory of their session.
    expect((await get(exportPath('north', '5', ''), cookies.support)).status).toBe(403);
    const allowed = await put({ siteId: 'north', role: 'support', capability: 'export', allowed: true }, cookies.owner);
    expect(allowed.status, allowed.text).toBe(200);
    const view = roleCapabilitiesViewSchema.parse(JSON.parse(allowed.text));
    expect(view.overrides).toMatchObject([{ siteId: 'north', role: 'support', capability: 'export', allowed: true }]);

    platform.received.length = 0;
    const reply = await get(exportPath('north', '5', '?format=csv'), cookies.support);
    expect(reply.status, reply.text).toBe(200);
    expect(csvRows(reply.text)).toHaveLength(3);
    expect(platform.received).toHaveLength(1);
    // Only on that site.
    expect((await get(exportPath('south', '5', ''), cookies.support)).status).toBe(403);
    expect(await sitesOf(cookies.support)).toEqual([
      ['north', ['lookup', 'export']],
      ['south', ['lookup']],
    ]);
    // A sign-in's answer carries the sites as /api/sites does, overrides applied.
    const signIn = await signInWithPassword(running.port, 'support@example.com', PASSWORD);
    expect((JSON.parse(signIn.text) as { sites: { id: string; can: string[] }[] }).sites.map((site) => [site.id, site.can])).toEqual([
      ['north', ['lookup', 'export']],
      ['south', ['lookup']],
    ]);

    const [change] = await running.site.activity.list({ action: 'role.capability' }, { limit: 5 });
    expect(change).toMatchObject({ site_id: 'north', person_name: 'Olive', outcome: 'ok' });
    expect(JSON.parse(change?.detail ?? 'null')).toEqual({
      site: 'north',
      role: 'support',
      capability: 'export',
      allowed: true,
      before: null,
    });

    // Withheld from editors on every site: the editor of North may no longer export, at once.
    expect((await get(exportPath('north', '5', ''), cookies.editor)).status).toBe(200);
    expect((await put({ siteId: ALL_SITES, role: 'editor', capability: 'export', allowed: false }, cookies.owner)).status).toBe(200);
    expect((await get(exportPath('north', '5', ''), cookies.editor)).status).toBe(403);
    // Back to the defaults.
    expect((await put({ siteId: ALL_SITES, role: 'editor', capability: 'export', allowed: null }, cookies.owner)).status).toBe(200);
    expect((await put({ siteId: 'north', role: 'support', capability: 'export', allowed: null }, cookies.owner)).status).toBe(200);
    expect((await get(exportPath('north', '5', ''), cookies.editor)).status).toBe(200);
    expect((await get(exportPath('north', '5', ''), cookies.support)).status).toBe(403);

    // Written by an operator's SQL rather than an instance: heard all the same, at the next request.
    await running.site.database.db
      .insertInto('role_capabilities')
      .values({ site_id: 'south', role: 'support', capability: 'export', allowed: 1, changed_at: Date.now(), changed_by: null })
      .execute();
    expect((await get(exportPath('south', '5', ''), cookies.support)).status).toBe(200);
    await running.site.database.db.deleteFrom('role_capabilities').execute();
    expect((await get(exportPath('south', '5', ''), cookies.support)).status).toBe(403);
  });

  it('lets only owners of every site see or change what roles may do, and only what is adjustable', async () => {
    for (const who of ['support', 'editor'] as const) {
      expect((await get(ROLE_OVERRIDES_PATH, cookies[who])).status).toBe(403);
      expect((await put({ siteId: 'north', role: 'support', capability: 'export', allowed: true }, cookies[who])).status).toBe(403);
    }
    const refused = [
      [{ siteId: 'north', role: 'support', capability: 'create', allowed: true }, 'capability'],
      [{ siteId: 'north', role: 'support', capability: 'lookup', allowed: false }, 'capability'],
      [{ siteId: 'north', role: 'owner', capability: 'export', allowed: false }, 'role'],
      [{ siteId: 'elsewhere', role: 'support', capability: 'export', allowed: true }, 'siteId'],
      [{ siteId: 'north', role: 'support', capability: 'export', allowed: 'yes' }, 'allowed'],
    ] as const;
    for (const [body, field] of refused) {
      const reply = await put(body, cookies.owner);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect((JSON.parse(reply.text) as { details: { field: string }[] }).details.map((detail) => detail.field)).toContain(field);
    }
    const view = roleCapabilitiesViewSchema.parse(JSON.parse((await get(ROLE_OVERRIDES_PATH, cookies.owner)).text));
    expect(view).toEqual({
      sites: [
        { id: 'north', name: 'North Shop' },
        { id: 'south', name: 'South Shop' },
      ],
      overrides: [],
    });
  });

  it('refuses a list over the bound after its first page (413), and records nothing', async () => {
    const before = (await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).length;
    answer = () => ({
      status: 200,
      body: JSON.stringify({
        results: [standInCase(1)],
        total_entries: EXPORT_MAX_CASES + 1,
        total_pages: 201,
        current_page: 1,
        per_page: 500,
      }),
    });
    platform.received.length = 0;
    const reply = await get(exportPath('north', '5', ''), cookies.owner);
    expect(reply.status).toBe(413);
    expect(errorShapeProblems(413, reply.headers['content-type'], reply.text)).toEqual([]);
    expect((JSON.parse(reply.text) as { message: string }).message).toMatch(
      /^This list holds 100,001 cases; an export takes at most 100,000/,
    );
    expect(platform.received).toHaveLength(1);
    expect(await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).toHaveLength(before);
  });

  it('answers 502 when the platform fails in the middle, with no file and no entry', async () => {
    const before = (await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).length;
    answer = (url) =>
      url.searchParams.get('page') === '1'
        ? {
            status: 200,
            body: JSON.stringify({
              results: Array.from({ length: 500 }, (_, i) => standInCase(1000 - i)),
              total_entries: 900,
              total_pages: 2,
              current_page: 1,
              per_page: 500,
            }),
          }
        : { status: 500, body: '{"error":"Internal Server Error","message":"boom","code":500}' };
    const reply = await get(exportPath('north', '5', ''), cookies.owner);
    expect(reply.status).toBe(502);
    expect((JSON.parse(reply.text) as { message: string }).message).toMatch(/page 2/);
    expect(await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).toHaveLength(before);
  });

  it('makes no file when the record cannot take the export (503)', async () => {
    answer = twoCases;
    const { db } = running.site.database;
    const putBack = await refuseActivityEntries(db, engine);
    try {
      const reply = await get(exportPath('north', '5', '?format=csv'), cookies.owner);
      expect(reply.status).toBe(503);
      expect(JSON.parse(reply.text)).toMatchObject({
        code: 503,
        message: expect.stringMatching(/^The activity record could not take this export/),
      });
      expect(reply.headers['content-disposition']).toBeUndefined();
      expect(reply.text).not.toContain('p1@example.com');
    } finally {
      await putBack();
    }
  });

  it('stops reading the platform when the browser goes away, and records nothing', async () => {
    const before = (await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).length;
    // A platform of its own whose second page waits until the test lets it go.
    const pages: string[] = [];
    let releaseSecond: (() => void) | undefined;
    let secondAnswered: Promise<unknown> | undefined;
    const slow = http.createServer((req, res) => {
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '';
      pages.push(page);
      const body = JSON.stringify({
        results: Array.from({ length: 500 }, (_, i) => standInCase(Number(page) * 1000 + i)),
        total_entries: 5000,
        total_pages: 10,
        current_page: Number(page),
        per_page: 500,
      });
      const send = () => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (page !== '2') return send();
      secondAnswered = once(res, 'finish');
      releaseSecond = send;
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    const { port } = slow.address() as { port: number };
    const dir = tempDir('site-admin-export-gone-');
    const profile = join(dir, 'site-profile.json');
    writeFileSync(
      profile,
      JSON.stringify({
        sites: [
          {
            id: 'slow',
            name: 'Slow',
            platform: { baseUrl: `http://127.0.0.1:${port}/api/site/v2`, siteId: '7003', apiKeyEnv: 'SLOW_KEY' },
          },
        ],
      }),
    );
    const other = await startWholeServer({ SITE_PROFILE: profile, SLOW_KEY: 'KEY-slow' }, { database: await freshDatabase() });
    try {
      await addPeople(other.site, [{ email: 'owner@example.com', password: PASSWORD, grants: [{ siteId: ALL_SITES, role: 'owner' }] }]);
      const cookie = await signedIn(other, 'owner@example.com');
      const request = http.get({
        host: '127.0.0.1',
        port: other.port,
        path: exportPath('slow', '5', ''),
        headers: { cookie },
        agent: false,
      });
      request.on('error', () => undefined);
      await waitFor(() => releaseSecond !== undefined, { timeoutMs: 10_000, what: 'the second page asked for' });
      const closed = new Promise((resolve) => request.on('close', resolve));
      request.destroy();
      await closed;
      releaseSecond?.();
      await secondAnswered;
      // Two round trips through the server after the page arrived: time enough for a third page to be asked.
      expect((await send(other.port, { path: '/api/health' })).status).toBe(200);
      expect((await send(other.port, { path: '/api/health' })).status).toBe(200);
      expect(pages).toEqual(['1', '2']);
      expect(await other.site.activity.list({ action: 'cases.export' }, { limit: 500 })).toHaveLength(0);
    } finally {
      await other.stop();
      await new Promise((resolve) => slow.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await running.site.activity.list({ action: 'cases.export' }, { limit: 500 })).toHaveLength(before);
  });

  it('takes an override made on one instance into account on another sharing the database, at the next request', async () => {
    answer = twoCases;
    const database = await freshDatabase();
    const env = { SITE_PROFILE: profile, NORTH_KEY: 'KEY-north', SOUTH_KEY: 'KEY-south' };
    const a = await startWholeServer(env, { database });
    const b = await startWholeServer(env, { database });
    try {
      await addPeople(a.site, [
        { email: 'owner@example.com', password: PASSWORD, grants: [{ siteId: ALL_SITES, role: 'owner' }] },
        { email: 'support@example.com', password: PASSWORD, grants: [{ siteId: 'north', role: 'support' }] },
      ]);
      const owner = await signedIn(a, 'owner@example.com');
      const support = await signedIn(b, 'support@example.com');
      const onB = () => send(b.port, { path: exportPath('north', '5', ''), headers: { cookie: support } });
      // Kept in B's memory with the session.
      expect((await onB()).status).toBe(403);
      expect((await onB()).status).toBe(403);
      const allowed = await send(a.port, {
        method: 'PUT',
        path: ROLE_OVERRIDES_PATH,
        headers: { cookie: owner, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ siteId: 'north', role: 'support', capability: 'export', allowed: true }),
      });
      expect(allowed.status).toBe(200);
      expect((await onB()).status).toBe(200);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
