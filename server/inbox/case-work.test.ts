/**
 * The team's work on cases, through the whole server on SQLite and PostgreSQL (the example profile's two
 * sandbox shops): work read and changed on many cases at once, seen per person, notes added and edited with
 * every earlier text kept, who may be assigned; bad input refused with 400 and what is wrong, a site the
 * profile lacks 404, a person without `lookup` 403 with nothing changed; the record's entries of each change,
 * which never hold a note's text; and the notes' own retention, pruned at start and recorded.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CASE_WORK_MAX_CASES,
  INBOX_PATHS,
  inboxPath,
  NEW_WINDOW_MS,
  type Assignees,
  type CaseWorkDetail,
  type Note,
  type WorkAnswer,
} from '../../src/contract/case-work';
import type { ActivityRow } from '../activity/activity-store';
import type { DatabaseSetting } from '../config';
import { describeEachEngine } from '../testing/postgres';
import {
  addPeople,
  errorShapeProblems,
  refuseActivityEntries,
  REPO_ROOT,
  send,
  startWholeServer,
  type Reply,
} from '../testing/test-helpers';
import { casesParameter } from './case-work-endpoints';

const PROFILE = join(REPO_ROOT, 'server', 'site-profile.example.json');
const SITE = 'harbour-linen';
const OWNER = { email: 'owner@example.com', password: 'quiet lanterns over harbour water' };
const ANA = { email: 'ana@example.com', password: 'ana support passphrase here', displayName: 'Ana Ruiz' };
const BEN = { email: 'ben@example.com', password: 'ben support passphrase here', displayName: 'Ben Okafor' };
/** Editor of the other shop only: no lookup on Harbour Linen. */
const EVE = { email: 'eve@example.com', password: 'eve summit editor passphrase', displayName: 'Eve Summit' };
const DAN = { email: 'dan@example.com', password: 'dan disabled passphrase here', displayName: 'Dan Gone' };
const DAY = 86_400_000;
/** Sessions as long as the settings allow: the tests move the server's clock on by days. */
const SETTINGS = {
  SITE_PROFILE: PROFILE,
  ADMIN_USER: OWNER.email,
  ADMIN_PASSWORD: OWNER.password,
  SESSION_IDLE_MINUTES: '10080',
  SESSION_MAX_HOURS: '720',
};

it('reads ?cases= strictly', () => {
  const of = (query: string) => casesParameter(new URLSearchParams(query));
  expect(of('cases=1,2,abc_-9')).toEqual({ ok: true, cases: ['1', '2', 'abc_-9'] });
  expect(of('')).toMatchObject({ ok: false, message: 'must name at least one case' });
  expect(of('cases=1&cases=2')).toMatchObject({ ok: false, message: 'must be given once' });
  expect(of('cases=')).toMatchObject({ ok: false, message: 'must not hold an empty id' });
  expect(of('cases=1,,2')).toMatchObject({ ok: false, message: 'must not hold an empty id' });
  expect(of('cases=1, 2')).toMatchObject({ ok: false, message: 'must hold case ids separated by commas' });
  expect(of('cases=1,2,1')).toMatchObject({ ok: false, message: 'names case 1 twice' });
  const many = Array.from({ length: CASE_WORK_MAX_CASES }, (_, n) => String(n)).join(',');
  expect(of(`cases=${many}`)).toMatchObject({ ok: true });
  expect(of(`cases=${many},x`)).toMatchObject({ ok: false, message: `must name at most ${CASE_WORK_MAX_CASES} cases` });
});

describeEachEngine('the team’s work on cases', (engine, freshDatabase) => {
  let running: Awaited<ReturnType<typeof startWholeServer>>;
  let clock = Date.UTC(2026, 10, 26, 9, 0);
  const cookies: Record<'owner' | 'ana' | 'ben' | 'eve', string> = { owner: '', ana: '', ben: '', eve: '' };
  let ids: { ana: string; ben: string; eve: string; dan: string };
  let databaseSetting: DatabaseSetting;

  beforeAll(async () => {
    databaseSetting = await freshDatabase();
    running = await startWholeServer(SETTINGS, { database: databaseSetting, now: () => clock, prefix: 'site-admin-case-work-' });
    const [ana = '', ben = '', eve = '', dan = ''] = await addPeople(running.site, [
      { ...ANA, grants: [{ siteId: SITE, role: 'support' }] },
      { ...BEN, grants: [{ siteId: '*', role: 'support' }] },
      { ...EVE, grants: [{ siteId: 'summit-outfitters', role: 'editor' }] },
      { ...DAN, grants: [{ siteId: SITE, role: 'support' }], disabled: true },
    ]);
    ids = { ana, ben, eve, dan };
    for (const [name, who] of [
      ['owner', OWNER],
      ['ana', ANA],
      ['ben', BEN],
      ['eve', EVE],
    ] as const) {
      const reply = await call('POST', '/api/sign-in/password', '', { email: who.email, password: who.password });
      expect(reply.status).toBe(200);
      cookies[name] = ([] as string[])
        .concat(reply.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
    }
  }, 60_000);

  afterAll(async () => {
    await running.stop();
  }, 60_000);

  function call(method: string, path: string, cookie: string, body?: unknown): Promise<Reply> {
    return send(running.port, {
      method,
      path,
      headers: {
        origin: `http://127.0.0.1:${running.port}`,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  const json = <T>(reply: Reply) => JSON.parse(reply.text) as T;
  const path = (template: string, parts: { site?: string; form?: string; case?: string; note?: string } = {}) =>
    inboxPath(template, { site: SITE, form: '21', ...parts });
  const workOf = async (cases: string, cookie = cookies.ana, form = '21') => {
    const reply = await call('GET', `${path(INBOX_PATHS.work, { form })}?cases=${cases}`, cookie);
    expect(reply.status, reply.text).toBe(200);
    return json<WorkAnswer>(reply);
  };
  const detailOf = async (caseId: string, cookie = cookies.ana) => {
    const reply = await call('GET', path(INBOX_PATHS.caseWork, { case: caseId }), cookie);
    expect(reply.status, reply.text).toBe(200);
    return json<CaseWorkDetail>(reply);
  };
  /** The record's entries of `action`, oldest first, straight from the store. */
  const recorded = async (action: string) =>
    (await running.site.activity.list({ action }, { limit: 100 })).reverse().map((row: ActivityRow) => ({
      ...row,
      detail: JSON.parse(row.detail ?? 'null') as Record<string, unknown>,
    }));
  /** Every table's rows of the team's work, to compare before and after a refusal. */
  const everything = async () => {
    const { db } = running.site.database;
    return {
      work: await db.selectFrom('case_work').selectAll().orderBy('case_id').execute(),
      notes: await db.selectFrom('case_notes').selectAll().orderBy('id').execute(),
      versions: await db.selectFrom('case_note_versions').selectAll().orderBy('note_id').orderBy('version').execute(),
      seen: await db.selectFrom('case_seen').selectAll().orderBy('case_id').orderBy('person_key').execute(),
      entries: (await running.site.activity.list({}, { limit: 1 }))[0]?.seq,
    };
  };

  it('answers untouched cases as new, unassigned, unseen, and starts a person’s “new” a week back on their first read', async () => {
    const answer = await workOf('9001,9002');
    expect(answer.since).toBe(clock - NEW_WINDOW_MS);
    expect(answer.cases).toEqual({
      '9001': { status: 'new', assignee: null, notes: 0, seen: false, updatedAt: null, updatedBy: null },
      '9002': { status: 'new', assignee: null, notes: 0, seen: false, updatedAt: null, updatedBy: null },
    });
    const firstClock = clock;
    clock += DAY;
    // Kept as it was on later reads, however time moves on.
    expect((await workOf('9001')).since).toBe(firstClock - NEW_WINDOW_MS);
    const watch = await running.site.database.db
      .selectFrom('inbox_watches')
      .selectAll()
      .where('person_key', '=', ids.ana)
      .where('form_id', '=', '21')
      .executeTakeFirstOrThrow();
    expect(Number(watch.asked_at)).toBe(firstClock);
  });

  it('changes status and assignee of many cases in one request, recorded once each, and everyone sees it', async () => {
    const reply = await call('PATCH', path(INBOX_PATHS.change), cookies.ana, {
      cases: ['9101', '9102', '9103'],
      status: 'waiting',
      assignee: ids.ben,
    });
    expect(reply.status, reply.text).toBe(200);
    const answer = json<WorkAnswer>(reply);
    expect(answer.cases['9102']).toEqual({
      status: 'waiting',
      assignee: { id: ids.ben, name: BEN.displayName },
      notes: 0,
      seen: false,
      updatedAt: clock,
      updatedBy: ANA.displayName,
    });
    // Ben (support on every site) reads the same work.
    const ben = await workOf('9101,9103,9104', cookies.ben);
    expect(ben.cases['9101']?.status).toBe('waiting');
    expect(ben.cases['9103']?.assignee).toEqual({ id: ids.ben, name: BEN.displayName });
    expect(ben.cases['9104']?.status).toBe('new');

    // Only the status: the assignee stays.
    const statusOnly = await call('PATCH', path(INBOX_PATHS.change), cookies.ben, { cases: ['9101'], status: 'done' });
    expect(json<WorkAnswer>(statusOnly).cases['9101']).toMatchObject({
      status: 'done',
      assignee: { id: ids.ben },
      updatedBy: BEN.displayName,
    });
    // Nobody: the assignee goes, the status stays.
    const nobody = await call('PATCH', path(INBOX_PATHS.change), cookies.ben, { cases: ['9101'], assignee: null });
    expect(json<WorkAnswer>(nobody).cases['9101']).toMatchObject({ status: 'done', assignee: null });

    const statuses = await recorded('case.status');
    expect(statuses.map((e) => [e.person_name, e.site_id, e.form_id, e.case_id, e.target_name, e.detail])).toEqual([
      [ANA.displayName, SITE, '21', null, 'Waiting on customer', { cases: ['9101', '9102', '9103'], status: 'waiting', count: 3 }],
      [BEN.displayName, SITE, '21', '9101', 'Done', { cases: ['9101'], status: 'done', count: 1 }],
    ]);
    const assigned = await recorded('case.assigned');
    expect(assigned.map((e) => [e.person_name, e.case_id, e.target_name, e.detail])).toEqual([
      [
        ANA.displayName,
        null,
        BEN.displayName,
        { cases: ['9101', '9102', '9103'], assignee: { id: ids.ben, name: BEN.displayName }, count: 3 },
      ],
      [BEN.displayName, '9101', 'Nobody', { cases: ['9101'], assignee: null, count: 1 }],
    ]);
  });

  it('keeps seen per person, both ways, and records no entry for it', async () => {
    const before = (await running.site.activity.list({}, { limit: 1 }))[0]?.seq;
    const seen = await call('PATCH', path(INBOX_PATHS.change), cookies.ana, { cases: ['9201', '9202'], seen: true });
    expect(seen.status).toBe(200);
    expect(json<WorkAnswer>(seen).cases['9201']?.seen).toBe(true);
    expect((await workOf('9201,9202', cookies.ben)).cases['9201']?.seen).toBe(false);
    // Marked twice: still seen, no error.
    expect((await call('PATCH', path(INBOX_PATHS.change), cookies.ana, { cases: ['9201'], seen: true })).status).toBe(200);
    const unseen = await call('PATCH', path(INBOX_PATHS.change), cookies.ana, { cases: ['9202'], seen: false });
    expect(json<WorkAnswer>(unseen).cases).toMatchObject({ '9202': { seen: false } });
    expect((await workOf('9201,9202')).cases).toMatchObject({ '9201': { seen: true, status: 'new' }, '9202': { seen: false } });
    expect((await running.site.activity.list({}, { limit: 1 }))[0]?.seq).toBe(before);
  });

  it('adds notes and keeps every earlier text of an edit, recording only the note’s id and length', async () => {
    const secret = 'Customer Jane Doe, phone 021 555 0199, wants a refund';
    const added = await call('POST', path(INBOX_PATHS.notes, { case: '48217' }), cookies.ana, { text: `  ${secret}  ` });
    expect(added.status, added.text).toBe(201);
    const note = json<Note>(added);
    expect(note).toMatchObject({ text: secret, author: { id: ids.ana, name: ANA.displayName }, createdAt: clock, versions: [] });

    const writtenAt = clock;
    clock += 60_000;
    const first = await call('PUT', path(INBOX_PATHS.note, { case: '48217', note: note.id }), cookies.ana, { text: 'Refund agreed' });
    expect(first.status, first.text).toBe(200);
    clock += 60_000;
    const second = await call('PUT', path(INBOX_PATHS.note, { case: '48217', note: note.id }), cookies.ana, { text: 'Refund sent' });
    expect(json<Note>(second)).toMatchObject({
      text: 'Refund sent',
      updatedAt: clock,
      versions: [
        { text: secret, at: writtenAt, by: ANA.displayName },
        { text: 'Refund agreed', at: writtenAt + 60_000, by: ANA.displayName },
      ],
    });
    const other = json<Note>(await call('POST', path(INBOX_PATHS.notes, { case: '48217' }), cookies.ben, { text: 'Called back' }));

    // Everyone reads the case's notes, oldest first, with the earlier texts; and the count in the work.
    const detail = await detailOf('48217', cookies.ben);
    expect(detail.notes.map((n) => [n.text, n.author.name, n.versions.map((v) => v.text)])).toEqual([
      ['Refund sent', ANA.displayName, [secret, 'Refund agreed']],
      ['Called back', BEN.displayName, []],
    ]);
    expect(detail.work.notes).toBe(2);
    expect((await workOf('48217')).cases['48217']?.notes).toBe(2);

    // Only its author edits a note: Ben, the owner and anyone else are refused and nothing changes.
    const state = await everything();
    for (const cookie of [cookies.ben, cookies.owner]) {
      const refused = await call('PUT', path(INBOX_PATHS.note, { case: '48217', note: note.id }), cookie, { text: 'Rewritten' });
      expect(refused.status).toBe(403);
      expect(errorShapeProblems(403, refused.headers['content-type'], refused.text)).toEqual([]);
      expect(json<{ message: string }>(refused).message).toMatch(/Only the note’s author may edit it/);
    }
    // A note of another case, or none: 404.
    expect((await call('PUT', path(INBOX_PATHS.note, { case: '48218', note: note.id }), cookies.ana, { text: 'x' })).status).toBe(404);
    expect((await call('PUT', path(INBOX_PATHS.note, { case: '48217', note: 'nope' }), cookies.ana, { text: 'x' })).status).toBe(404);
    expect(await everything()).toEqual(state);

    const added_ = await recorded('case.note.added');
    const edited = await recorded('case.note.edited');
    expect(added_.map((e) => [e.person_name, e.case_id, e.form_id, e.detail])).toEqual([
      [ANA.displayName, '48217', '21', { note: note.id, length: secret.length }],
      [BEN.displayName, '48217', '21', { note: other.id, length: 'Called back'.length }],
    ]);
    expect(edited.map((e) => e.detail)).toEqual([
      { note: note.id, length: 'Refund agreed'.length, version: 2 },
      { note: note.id, length: 'Refund sent'.length, version: 3 },
    ]);
    // No entry of the whole record holds any text of a note.
    const all = await running.site.activity.list({}, { limit: 1000 });
    for (const row of all) {
      for (const text of [secret, 'Refund agreed', 'Refund sent', 'Called back', 'Jane']) expect(JSON.stringify(row)).not.toContain(text);
    }
  });

  it('loses no text when a note is edited several times at once: each edit is saved with the earlier text kept, or refused 409', async () => {
    const note = json<Note>(await call('POST', path(INBOX_PATHS.notes, { case: '7700' }), cookies.ana, { text: 'v0' }));
    const texts = ['v1', 'v2', 'v3', 'v4', 'v5'];
    const replies = await Promise.all(
      texts.map((text) => call('PUT', path(INBOX_PATHS.note, { case: '7700', note: note.id }), cookies.ana, { text })),
    );
    expect(replies.every((reply) => reply.status === 200 || reply.status === 409)).toBe(true);
    const saved = replies.filter((reply) => reply.status === 200).map((reply) => json<Note>(reply).text);
    expect(saved.length).toBeGreaterThan(0);
    const [final] = (await detailOf('7700')).notes;
    // Every text ever saved is the note's text or one of its earlier texts, in the order they were saved.
    const history = [...(final?.versions.map((version) => version.text) ?? []), final?.text];
    expect(history[0]).toBe('v0');
    expect(history.slice(1).sort()).toEqual([...saved].sort());
    expect((await recorded('case.note.edited')).filter((entry) => entry.detail.note === note.id)).toHaveLength(saved.length);
  });

  it('lists as assignees the active people who may look up cases on the site, and refuses anyone else', async () => {
    const reply = await call('GET', inboxPath(INBOX_PATHS.assignees, { site: SITE }), cookies.ana);
    expect(reply.status).toBe(200);
    const { people } = json<Assignees>(reply);
    expect(people.map((p) => p.name)).toEqual([ANA.displayName, BEN.displayName, 'owner']);
    expect(people.map((p) => p.id)).not.toContain(ids.eve);
    expect(people.map((p) => p.id)).not.toContain(ids.dan);
    // On the other shop, Eve (its editor) may be assigned, Ana (support here only) not.
    const summit = json<Assignees>(await call('GET', inboxPath(INBOX_PATHS.assignees, { site: 'summit-outfitters' }), cookies.ben));
    expect(summit.people.map((p) => p.name)).toEqual([BEN.displayName, EVE.displayName, 'owner']);

    const state = await everything();
    for (const assignee of [ids.eve, ids.dan, 'no-such-person']) {
      const refused = await call('PATCH', path(INBOX_PATHS.change), cookies.ana, { cases: ['9301'], status: 'open', assignee });
      expect(refused.status).toBe(400);
      expect(json<{ details: { field: string }[] }>(refused).details).toEqual([
        { field: 'assignee', message: 'must be a person who may look up cases on this site' },
      ]);
    }
    expect(await everything()).toEqual(state);
  });

  it('refuses bad input with 400 and what is wrong, before anything changes', async () => {
    const state = await everything();
    const cases = (query: string) => call('GET', `${path(INBOX_PATHS.work)}${query}`, cookies.ana);
    for (const [query, message] of [
      ['', 'must name at least one case'],
      ['?cases=1,,2', 'must not hold an empty id'],
      ['?cases=1,1', 'names case 1 twice'],
      ['?cases=a%20b', 'must hold case ids separated by commas'],
      [`?cases=${Array.from({ length: 501 }, (_, n) => n).join(',')}`, 'must name at most 500 cases'],
    ] as const) {
      const reply = await cases(query);
      expect(reply.status, query).toBe(400);
      expect(errorShapeProblems(400, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(json<{ details: unknown }>(reply).details).toEqual([{ field: 'cases', message }]);
    }
    const badForm = await call('GET', `${path(INBOX_PATHS.work, { form: 'form 3' })}?cases=1`, cookies.ana);
    expect(badForm.status).toBe(400);
    expect(json<{ details: { field: string }[] }>(badForm).details.map((d) => d.field)).toEqual(['form']);
    const badCase = await call('POST', path(INBOX_PATHS.notes, { case: 'x'.repeat(65) }), cookies.ana, { text: 'hello' });
    expect(json<{ details: { field: string }[] }>(badCase).details.map((d) => d.field)).toEqual(['case']);

    for (const [body, field] of [
      [{ cases: [] }, 'cases'],
      [{ cases: ['1'] }, 'cases'],
      [{ cases: ['1'], status: 'closed' }, 'status'],
      [{ cases: ['1 2'], status: 'open' }, 'cases.0'],
      [{ cases: ['1', '1'], status: 'open' }, 'cases'],
      [{ cases: ['1'], status: 'open', extra: true }, 'body'],
      [{ cases: Array.from({ length: 501 }, (_, n) => String(n)), status: 'open' }, 'cases'],
    ] as const) {
      const reply = await call('PATCH', path(INBOX_PATHS.change), cookies.ana, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(errorShapeProblems(400, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(json<{ details: { field: string }[] }>(reply).details.map((d) => d.field)).toContain(field);
    }
    // A NUL is refused as every control character but tab and line ends: PostgreSQL would refuse it with a 500.
    for (const body of [{}, { text: '   ' }, { text: 'x'.repeat(5001) }, { text: 3 }, { text: 'a\u0000b' }, { text: 'bell \u0007' }]) {
      const reply = await call('POST', path(INBOX_PATHS.notes, { case: '1' }), cookies.ana, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(json<{ details: { field: string }[] }>(reply).details.map((d) => d.field)).toEqual(['text']);
    }
    expect(await everything()).toEqual(state);
  });

  it('makes no change the activity record cannot take (503): a status, a note, an edit are not made or are taken back', async () => {
    const kept = json<Note>(await call('POST', path(INBOX_PATHS.notes, { case: '7001' }), cookies.ana, { text: 'Before the outage' }));
    const { db } = running.site.database;
    const putBack = await refuseActivityEntries(db, engine);
    try {
      const state = await everything();
      const replies = [
        await call('PATCH', path(INBOX_PATHS.change), cookies.ana, { cases: ['7001', '7002'], status: 'done' }),
        await call('POST', path(INBOX_PATHS.notes, { case: '7001' }), cookies.ana, { text: 'Lost in the outage' }),
        await call('PUT', path(INBOX_PATHS.note, { case: '7001', note: kept.id }), cookies.ana, { text: 'Edited in the outage' }),
      ];
      expect(replies.map((reply) => reply.status)).toEqual([503, 503, 503]);
      for (const reply of replies) {
        expect(JSON.parse(reply.text)).toMatchObject({
          code: 503,
          message: expect.stringMatching(/^The activity record could not take this change/),
        });
      }
      expect(await everything()).toEqual(state);
    } finally {
      await putBack();
    }
  });

  it('answers 404 for a site the profile lacks, and 403 without lookup on the site, with nothing changed', async () => {
    const state = await everything();
    const unknown = await call('GET', `${inboxPath(INBOX_PATHS.work, { site: 'elsewhere', form: '21' })}?cases=1`, cookies.owner);
    expect(unknown.status).toBe(404);
    expect(errorShapeProblems(404, unknown.headers['content-type'], unknown.text)).toEqual([]);
    expect((await call('GET', inboxPath(INBOX_PATHS.assignees, { site: 'elsewhere' }), cookies.owner)).status).toBe(404);

    const requests: [string, string, unknown][] = [
      ['GET', `${path(INBOX_PATHS.work)}?cases=9101`, undefined],
      ['PATCH', path(INBOX_PATHS.change), { cases: ['9101'], status: 'open', assignee: null, seen: true }],
      ['GET', path(INBOX_PATHS.caseWork, { case: '48217' }), undefined],
      ['POST', path(INBOX_PATHS.notes, { case: '48217' }), { text: 'Eve was here' }],
      ['PUT', path(INBOX_PATHS.note, { case: '48217', note: state.notes[0]?.id ?? 'x' }), { text: 'Eve was here' }],
      ['GET', inboxPath(INBOX_PATHS.assignees, { site: SITE }), undefined],
    ];
    for (const [method, address, body] of requests) {
      const reply = await call(method, address, cookies.eve, body);
      expect(reply.status, `${method} ${address}`).toBe(403);
      expect(errorShapeProblems(403, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(json<{ message: string }>(reply).message).toBe('You have no role on Harbour Linen: ask an owner of site-admin for one.');
    }
    // Not signed in: 401, before any of it.
    expect((await call('GET', `${path(INBOX_PATHS.work)}?cases=9101`, '')).status).toBe(401);
    expect(await everything()).toEqual(state);
  });

  it('prunes notes past CASE_NOTES_RETENTION_DAYS with their earlier texts at start, and records how many', async () => {
    const { db } = running.site.database;
    const at = clock;
    const old = json<Note>(await call('POST', path(INBOX_PATHS.notes, { case: '7001' }), cookies.ana, { text: 'An old note' }));
    await call('PUT', path(INBOX_PATHS.note, { case: '7001', note: old.id }), cookies.ana, { text: 'An old note, edited' });
    clock = at + 5 * DAY;
    const kept = json<Note>(await call('POST', path(INBOX_PATHS.notes, { case: '7001' }), cookies.ana, { text: 'A newer note' }));
    const notesBefore = (await db.selectFrom('case_notes').select('id').execute()).length;

    // A second server on the same database, started 3 days after the newer note with a retention of 6 days:
    // every note but the newer one was written before its cut-off.
    clock = at + 8 * DAY;
    const again = await startWholeServer(
      { ...SETTINGS, CASE_NOTES_RETENTION_DAYS: '6' },
      { database: databaseSetting, now: () => clock, prefix: 'site-admin-case-work-2-' },
    );
    try {
      await expect
        .poll(async () => (await again.site.activity.list({ action: 'case.notes.pruned' }, { limit: 10 })).map((row) => row.detail))
        .toEqual([JSON.stringify({ removed: notesBefore - 1, before: new Date(clock - 6 * DAY).toISOString() })]);
    } finally {
      await again.stop();
    }
    const left = await db.selectFrom('case_notes').select('id').execute();
    expect(left.map((row) => row.id)).toEqual([kept.id]);
    expect(await db.selectFrom('case_note_versions').selectAll().where('note_id', '=', old.id).execute()).toEqual([]);
    expect(await db.selectFrom('case_note_versions').selectAll().execute()).toEqual([]);
    // The notes' count in the work follows.
    expect((await workOf('48217')).cases['48217']?.notes).toBe(0);
  });

  it('works in the local demo too: its notes are the demo’s own to edit, and there is nobody to assign', async () => {
    const demo = await startWholeServer(
      { SITE_PROFILE: PROFILE },
      { database: await freshDatabase(), prefix: 'site-admin-case-work-demo-' },
    );
    try {
      const demoCall = (method: string, address: string, body?: unknown) =>
        send(demo.port, {
          method,
          path: address,
          headers: { origin: `http://127.0.0.1:${demo.port}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const changed = await demoCall('PATCH', path(INBOX_PATHS.change), { cases: ['48217'], status: 'open', seen: true });
      expect(json<WorkAnswer>(changed).cases['48217']).toMatchObject({ status: 'open', seen: true, updatedBy: 'Local demo' });
      const note = json<Note>(await demoCall('POST', path(INBOX_PATHS.notes, { case: '48217' }), { text: 'Demo note' }));
      expect(note.author).toEqual({ id: null, name: 'Local demo' });
      const edited = await demoCall('PUT', path(INBOX_PATHS.note, { case: '48217', note: note.id }), { text: 'Demo note, edited' });
      expect(json<Note>(edited).versions.map((v) => v.text)).toEqual(['Demo note']);
      expect(json<Assignees>(await demoCall('GET', inboxPath(INBOX_PATHS.assignees, { site: SITE }))).people).toEqual([]);
      const refused = await demoCall('PATCH', path(INBOX_PATHS.change), { cases: ['48217'], assignee: 'someone' });
      expect(refused.status).toBe(400);
      const entries = await demo.site.activity.list({ action: 'case.status' }, { limit: 10 });
      expect(entries.map((row) => row.actor_kind)).toEqual(['demo']);
    } finally {
      await demo.stop();
    }
  });
});
