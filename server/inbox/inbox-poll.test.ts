/**
 * The shared reading of new cases and the navigation's counts, through the whole server on both engines,
 * against a stand-in platform that records every list request: however many people ask, each site's form
 * is read once per interval (also by two instances on one PostgreSQL); the counts say what is new to each
 * person (received since their "new" began, not seen); refusals; and a case added to the sandbox counts
 * after the next reading. The clock is the server's own, moved by the test; the passes are made by hand.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { ALL_SITES, type Grant } from '../../src/contract/access';
import { NEW_WINDOW_MS } from '../../src/contract/case-work';
import { inboxCountsPath, readInboxCounts, type InboxCounts } from '../../src/contract/inbox-counts';
import type { DatabaseSetting } from '../config';
import { describeEachEngine } from '../testing/postgres';
import { recordingPlatform, type ReceivedRequest, type RecordingPlatform } from '../testing/recording-platform';
import { addPeople, cookiesSet, send, signInWithPassword, startWholeServer, tempDir } from '../testing/test-helpers';
import { WATCHED_FOR_MS } from './inbox-poll';

const T0 = Date.UTC(2026, 10, 20, 9);
const INTERVAL = 5_000;
const DAY = 86_400_000;
const PASSWORD = 'counting new cases together';

type Whole = Awaited<ReturnType<typeof startWholeServer>>;

/** A case as the platform lists it: an id, epoch seconds, and content that must never be kept. */
const platformCase = (id: string, receivedMs: number) => ({
  id,
  created_at: Math.floor(receivedMs / 1000),
  properties: { email: `secret-${id}@example.com` },
});

/** The stand-in platform's forms, by `x-site-id/form`: newest first, as the list is asked for. */
const forms = new Map<string, ReturnType<typeof platformCase>[]>();
/** A form whose reading fails (500) while it is in here. */
const failing = new Set<string>();
/** What a list's total says, when it is more than the cases held (a page of a longer list). */
const totals = new Map<string, number>();

function answerList(request: ReceivedRequest): { status: number; body: string } {
  const form = /^\/api\/site\/v2\/forms\/([^/?]+)\/cases\?/.exec(request.url)?.[1];
  const key = `${String(request.headers['x-site-id'])}/${form ?? ''}`;
  if (failing.has(key)) return { status: 500, body: JSON.stringify({ error: 'Internal Server Error', code: 500, message: 'down' }) };
  const cases = forms.get(key) ?? [];
  if (cases.length === 0) {
    return { status: 404, body: JSON.stringify({ error: 'Not Found', code: 404, message: 'The form does not contain any cases' }) };
  }
  const page = cases.slice(0, 100);
  const total = totals.get(key) ?? cases.length;
  return {
    status: 200,
    body: JSON.stringify({ results: page, total_entries: total, total_pages: Math.ceil(total / 100), current_page: 1, per_page: 100 }),
  };
}

/** A profile of two live sites on the stand-in platform: north (forms 3 and 21) and south (form 12). */
function profileOn(platform: RecordingPlatform): string {
  const file = join(tempDir('site-admin-inbox-profile-'), 'site-profile.json');
  const baseUrl = `http://127.0.0.1:${platform.port}/api/site/v2`;
  writeFileSync(
    file,
    JSON.stringify({
      sites: [
        {
          id: 'north',
          name: 'North',
          platform: { baseUrl, siteId: '1', apiKeyEnv: 'NORTH_KEY' },
          forms: { '3': { name: 'Contact' }, '21': { name: 'Claims' } },
        },
        { id: 'south', name: 'South', platform: { baseUrl, siteId: '2', apiKeyEnv: 'SOUTH_KEY' }, forms: { '12': { name: 'Sign-ups' } } },
      ],
    }),
  );
  return file;
}

const PEOPLE: { email: string; grants: Grant[] }[] = [
  { email: 'ann@example.com', grants: [{ siteId: ALL_SITES, role: 'support' }] },
  {
    email: 'ben@example.com',
    grants: [
      { siteId: 'north', role: 'editor' },
      { siteId: 'south', role: 'support' },
    ],
  },
  { email: 'cy@example.com', grants: [{ siteId: ALL_SITES, role: 'owner' }] },
  // No role on south: its counts are refused.
  { email: 'dee@example.com', grants: [{ siteId: 'north', role: 'support' }] },
];

/** The list requests the platform received, as `site/form` of each. */
const listRequests = (platform: RecordingPlatform) =>
  platform.received.flatMap((request) => {
    const form = /^\/api\/site\/v2\/forms\/([^/?]+)\/cases\?/.exec(request.url)?.[1];
    return form ? [`${String(request.headers['x-site-id'])}/${form}`] : [];
  });

describeEachEngine('the shared reading of new cases', (engine, freshDatabase) => {
  let platform: RecordingPlatform;
  let profile: string;
  let clock = T0;
  let setting: DatabaseSetting;
  const instances: Whole[] = [];
  /** Each person's session cookie, by e-mail address. */
  const cookies = new Map<string, string>();
  const ids = new Map<string, string>();

  const startInstance = async () => {
    const whole = await startWholeServer(
      { SITE_PROFILE: profile, NORTH_KEY: 'north-key', SOUTH_KEY: 'south-key', INBOX_POLL_SECONDS: String(INTERVAL / 1000) },
      { database: setting, now: () => clock, inboxPollByHand: true, prefix: 'site-admin-inbox-' },
    );
    instances.push(whole);
    return whole;
  };

  beforeAll(async () => {
    platform = await recordingPlatform(answerList);
    profile = profileOn(platform);
  });
  afterAll(async () => {
    await platform.close();
  });

  beforeEach(async () => {
    clock = T0;
    forms.clear();
    failing.clear();
    totals.clear();
    setting = await freshDatabase();
    const first = await startInstance();
    const added = await addPeople(
      first.site,
      PEOPLE.map((person) => ({ ...person, password: PASSWORD })),
    );
    cookies.clear();
    for (const [n, person] of PEOPLE.entries()) {
      ids.set(person.email, added[n] ?? '');
      const signedIn = await signInWithPassword(first.port, person.email, PASSWORD);
      expect(signedIn.status).toBe(200);
      cookies.set(person.email, [...cookiesSet(signedIn)].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    platform.received.length = 0;
  });
  afterEach(async () => {
    for (const whole of instances.splice(0)) await whole.stop();
  });

  const ask = async (email: string, site: string, on = instances[0]) => {
    const reply = await send(on?.port ?? 0, { path: inboxCountsPath(site), headers: { cookie: cookies.get(email) ?? '' } });
    return { status: reply.status, counts: reply.status === 200 ? readInboxCounts(JSON.parse(reply.text)) : undefined, text: reply.text };
  };
  const counts = async (email: string, site: string): Promise<InboxCounts> => {
    const { status, counts: read, text } = await ask(email, site);
    expect(status, text).toBe(200);
    if (!read) throw new Error(`not the counts' shape: ${text}`);
    return read;
  };
  /** Every instance's pass at once, as their timers might fall together. */
  const passes = () => Promise.all(instances.map((whole) => whole.site.inboxPoll.tick()));
  const pollRow = async (site: string, form: string) =>
    instances[0]?.site.database.db
      .selectFrom('inbox_polls')
      .selectAll()
      .where('site_id', '=', site)
      .where('form_id', '=', form)
      .executeTakeFirst();

  it('reads each site’s form once per interval for three people asking, and only the forms asked about', async () => {
    forms.set('1/3', [platformCase('301', T0 - DAY)]);
    forms.set('1/21', [platformCase('2101', T0 - DAY)]);
    forms.set('2/12', [platformCase('1201', T0 - DAY)]);
    for (let interval = 0; interval < 4; interval += 1) {
      const start = T0 + interval * INTERVAL;
      // Several asks and passes within each interval, at different moments of it.
      for (const offset of [0, 1_000, 2_500, 4_999]) {
        clock = start + offset;
        for (const { email } of PEOPLE.slice(0, 3)) {
          expect((await ask(email, 'north')).status).toBe(200);
          expect((await ask(email, 'south')).status).toBe(200);
        }
        await passes();
      }
      const seen = listRequests(platform);
      expect(seen.filter((key) => key === '1/3')).toHaveLength(interval + 1);
      expect(seen.filter((key) => key === '1/21')).toHaveLength(interval + 1);
      expect(seen.filter((key) => key === '2/12')).toHaveLength(interval + 1);
    }
    expect(listRequests(platform)).toHaveLength(12);
    // Page one, newest first, with the site's own key and id.
    const [first] = platform.received;
    expect(first?.url).toMatch(/\?per_page=100&page=1&sort_type=created_at&sort_order=desc$/);
    expect(first?.headers).toMatchObject({ 'x-api-key': expect.stringMatching(/^(north|south)-key$/) as string });

    // Nobody asks for ten minutes: nothing is read.
    clock += WATCHED_FOR_MS + INTERVAL;
    const before = platform.received.length;
    expect(await passes()).toEqual([0]);
    expect(platform.received).toHaveLength(before);
    // One person asks about south: only south's form is read.
    await ask('ann@example.com', 'south');
    await passes();
    expect(listRequests(platform).slice(before)).toEqual(['2/12']);
  });

  it('counts what is new to each person: received since their new began, not seen; more when the page was all new', async () => {
    forms.set('1/3', [platformCase('305', T0 - 1_000), platformCase('304', T0 - DAY), platformCase('303', T0 - 8 * DAY)]);
    forms.set(
      '1/21',
      Array.from({ length: 100 }, (_, n) => platformCase(String(2200 - n), T0 - n * 60_000)),
    );
    totals.set('1/21', 340);
    // Before any reading: nothing to count, and the platform is not contacted by the ask.
    expect(await counts('ann@example.com', 'north')).toEqual({
      forms: { '3': { new: 0, more: false }, '21': { new: 0, more: false } },
      readAt: null,
      pollMs: INTERVAL,
    });
    expect(platform.received).toHaveLength(0);
    await passes();

    const ann = await counts('ann@example.com', 'north');
    // The case of eight days ago is before the week a newcomer's "new" starts with.
    expect(ann).toEqual({ forms: { '3': { new: 2, more: false }, '21': { new: 100, more: true } }, readAt: T0, pollMs: INTERVAL });

    // Seen by Ann (written by the case viewer or a bulk action): no longer new to her, still new to Ben.
    await instances[0]?.site.database.db
      .insertInto('case_seen')
      .values([
        { site_id: 'north', form_id: '3', person_key: ids.get('ann@example.com') ?? '', case_id: '305', seen_at: T0 },
        { site_id: 'north', form_id: '21', person_key: ids.get('ann@example.com') ?? '', case_id: '2150', seen_at: T0 },
      ])
      .execute();
    expect((await counts('ann@example.com', 'north')).forms).toEqual({ '3': { new: 1, more: false }, '21': { new: 99, more: false } });
    expect((await counts('ben@example.com', 'north')).forms['3']).toEqual({ new: 2, more: false });

    // Ben's "new" ran from his first ask; moved on (the inbox's "mark all seen" would), the older cases are not new to him.
    await instances[0]?.site.database.db
      .updateTable('inbox_watches')
      .set({ since: T0 - 10_000 })
      .where('person_key', '=', ids.get('ben@example.com') ?? '')
      .where('form_id', '=', '3')
      .execute();
    expect((await counts('ben@example.com', 'north')).forms['3']).toEqual({ new: 1, more: false });

    // A case arrives: counted after the next reading, not before.
    forms.get('1/3')?.unshift(platformCase('306', T0 + 2_000));
    clock = T0 + 2_000;
    await passes();
    expect((await counts('ann@example.com', 'north')).forms['3']).toEqual({ new: 1, more: false });
    clock = T0 + INTERVAL;
    await passes();
    expect(await counts('ann@example.com', 'north')).toMatchObject({ forms: { '3': { new: 2, more: false } }, readAt: T0 + INTERVAL });

    // Nothing of a case but its id and when it came is kept.
    const rows = await instances[0]?.site.database.db.selectFrom('inbox_polls').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain('secret-');
    expect(JSON.parse((await pollRow('north', '3'))?.newest ?? '[]')).toEqual([
      ['306', Math.floor((T0 + 2_000) / 1000) * 1000],
      ['305', Math.floor((T0 - 1_000) / 1000) * 1000],
      ['304', T0 - DAY],
      ['303', T0 - 8 * DAY],
    ]);
    // A first ask made the watch, from the week before; later asks only move asked_at.
    const watch = await instances[0]?.site.database.db
      .selectFrom('inbox_watches')
      .selectAll()
      .where('person_key', '=', ids.get('ann@example.com') ?? '')
      .where('form_id', '=', '3')
      .executeTakeFirst();
    expect(watch && [Number(watch.since), Number(watch.asked_at)]).toEqual([T0 - NEW_WINDOW_MS, T0 + INTERVAL]);
  });

  it('keeps the last good list when a reading fails, and stores the platform’s 404 as no cases', async () => {
    forms.set('1/3', [platformCase('301', T0 - 1_000)]);
    await counts('ann@example.com', 'north');
    await counts('ann@example.com', 'south');
    await passes();
    expect(await pollRow('south', '12')).toMatchObject({ outcome: 'empty', newest: '[]', total: 0 });
    expect((await counts('ann@example.com', 'north')).forms['3']).toEqual({ new: 1, more: false });

    failing.add('1/3');
    clock = T0 + INTERVAL;
    await passes();
    const row = await pollRow('north', '3');
    expect(row?.outcome).toMatch(/^failed: 500, /);
    expect(Number(row?.polled_at)).toBe(T0 + INTERVAL);
    expect((await counts('ann@example.com', 'north')).forms['3']).toEqual({ new: 1, more: false });
    // A failed reading waits for the next interval like any other.
    const before = platform.received.length;
    clock = T0 + INTERVAL + 1_000;
    await passes();
    expect(platform.received).toHaveLength(before);
  });

  it('refuses counts to someone who may not look up the site’s cases (403), of a site that is not here (404), and to nobody (401)', async () => {
    const refused = await ask('dee@example.com', 'south');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 403 });
    expect((await ask('ann@example.com', 'west')).status).toBe(404);
    expect((await send(instances[0]?.port ?? 0, { path: inboxCountsPath('north') })).status).toBe(401);
    // The refused ask watches nothing: south is not read for Dee.
    await passes();
    expect(platform.received).toHaveLength(0);
  });

  it('asks in the background: an open page’s counts never keep an idle session alive', async () => {
    const minutes = (n: number) => n * 60_000;
    // SESSION_IDLE_MINUTES is 120: asked at 119 minutes, the session still ends at 120 minutes after its last use.
    clock = T0 + minutes(119);
    expect((await ask('ann@example.com', 'north')).status).toBe(200);
    clock = T0 + minutes(121);
    expect((await ask('ann@example.com', 'north')).status).toBe(401);
    // A step of the person's own is a use, as before.
    clock = T0 + minutes(119);
    expect(
      (await send(instances[0]?.port ?? 0, { path: '/api/sites', headers: { cookie: cookies.get('ben@example.com') ?? '' } })).status,
    ).toBe(200);
    clock = T0 + minutes(121);
    expect((await ask('ben@example.com', 'north')).status).toBe(200);
  });

  if (engine === 'postgres') {
    it('reads once per interval between two instances on one database, whichever they are asked on', async () => {
      forms.set('1/3', [platformCase('301', T0 - 1_000)]);
      const second = await startInstance();
      for (let interval = 0; interval < 3; interval += 1) {
        for (const offset of [0, 2_000, 4_000]) {
          clock = T0 + interval * INTERVAL + offset;
          await ask('ann@example.com', 'north', instances[0]);
          await ask('ben@example.com', 'north', second);
          await passes();
          await passes();
        }
        expect(listRequests(platform).filter((key) => key === '1/3')).toHaveLength(interval + 1);
        expect(listRequests(platform).filter((key) => key === '1/21')).toHaveLength(interval + 1);
      }
      // Both answer the same counts from the one reading.
      const onSecond = await send(second.port, {
        path: inboxCountsPath('north'),
        headers: { cookie: cookies.get('cy@example.com') ?? '' },
      });
      expect(readInboxCounts(JSON.parse(onSecond.text))?.forms['3']).toEqual({ new: 1, more: false });
    });
  }
});

describeEachEngine('a case added to the sandbox', (_engine, freshDatabase) => {
  let whole: Whole;
  let clock = Date.now();
  beforeAll(async () => {
    whole = await startWholeServer(
      { SITE_PROFILE: join(import.meta.dirname, '..', 'site-profile.example.json'), INBOX_POLL_SECONDS: '5' },
      { database: await freshDatabase(), now: () => clock, inboxPollByHand: true, prefix: 'site-admin-inbox-sandbox-' },
    );
  });
  afterAll(async () => {
    await whole.stop();
  });

  const formCount = async (form: string) => {
    const reply = await send(whole.port, { path: inboxCountsPath('harbour-linen') });
    expect(reply.status).toBe(200);
    return readInboxCounts(JSON.parse(reply.text))?.forms[form];
  };

  it('counts after the next reading, and no longer once it is seen', async () => {
    await formCount('3');
    await whole.site.inboxPoll.tick();
    const before = (await formCount('3'))?.new ?? 0;

    const added = await fetch(`${whole.site.sandbox?.baseUrl.origin ?? ''}/__sandbox/cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
      body: JSON.stringify({ form: '3', record: { id: '990001', created_at: Math.floor(clock / 1000), properties: { name: 'New' } } }),
    });
    expect(added.status).toBe(200);
    expect((await formCount('3'))?.new).toBe(before);
    clock += 5_000;
    await whole.site.inboxPoll.tick();
    expect((await formCount('3'))?.new).toBe(before + 1);

    await whole.site.database.db
      .insertInto('case_seen')
      .values({ site_id: 'harbour-linen', form_id: '3', person_key: 'demo', case_id: '990001', seen_at: clock })
      .execute();
    expect((await formCount('3'))?.new).toBe(before);
  });
});
