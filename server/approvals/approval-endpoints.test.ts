/**
 * Four eyes through the whole server, on SQLite and PostgreSQL: the sites' rules, asking, approving,
 * rejecting, editing, withdrawing, an owner's override and expiry, each as a caller would notice it (the
 * answer, the change's state, the activity record's entries), and a site's writes refused or sent as the
 * rule says, with what the stand-in platform received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  APPROVAL_PATHS,
  bodyHash,
  changePath,
  REASON_MAX,
  rulePath,
  type ApprovalRule,
  type Change,
  type ChangeCounts,
  type ChangeSummary,
  type SiteRule,
} from '../../src/contract/approvals';
import { describeEachEngine } from '../testing/postgres';
import { productRecord, startApprovalServer, type ApprovalServer } from '../testing/approval-kit';
import { errorShapeProblems, refuseActivityEntries } from '../testing/test-helpers';

const SITE = 'main';
const DAY = 86_400_000;
const CREATE_BODY = JSON.stringify({ name: 'Walnut tray', slug: 'walnut-tray', enabled: 'true' });
const UPDATE_BODY = JSON.stringify({ name: 'Linen throw, sand', enabled: 'true' });

type Person = Awaited<ReturnType<ApprovalServer['person']>>;

describeEachEngine('four eyes through the whole server', (engine, freshDatabase) => {
  let s: ApprovalServer;
  let owner: Person;
  let owner2: Person;
  let editor: Person;
  let editor2: Person;
  let support: Person;

  beforeAll(async () => {
    s = await startApprovalServer(await freshDatabase(), { APPROVAL_EXPIRY_DAYS: '3' });
    owner = await s.person([{ siteId: SITE, role: 'owner' }], 'Olive Owner');
    owner2 = await s.person([{ siteId: '*', role: 'owner' }], 'Oscar Owner');
    editor = await s.person([{ siteId: SITE, role: 'editor' }], 'Edith Editor');
    editor2 = await s.person([{ siteId: '*', role: 'editor' }], 'Ezra Editor');
    support = await s.person([{ siteId: SITE, role: 'support' }], 'Sam Support');
  }, 60_000);
  afterAll(() => s.stop());

  const setRule = (who: Person, rule: ApprovalRule) => s.api(who.cookie, 'PUT', rulePath(SITE), rule);
  const ask = async (who: Person, body: unknown) => s.api(who.cookie, 'POST', APPROVAL_PATHS.list, body);
  const askCreate = async (who: Person, body = CREATE_BODY) => {
    const answer = await ask(who, { site: SITE, kind: 'create', body });
    expect(answer.status, answer.text).toBe(201);
    return answer.json as Change;
  };
  const act = (who: Person, path: string, id: string, body: unknown) => s.api(who.cookie, 'POST', changePath(path, id), body);
  const read = async (who: Person, id: string) => (await s.api(who.cookie, 'GET', changePath(APPROVAL_PATHS.one, id))).json as Change;
  const entries = async (change: string) => {
    const rows = await s.running.site.database.db.selectFrom('activity').selectAll().orderBy('seq').execute();
    return rows.filter((row) => row.detail?.includes(`"change":"${change}"`));
  };
  const shapeOk = (answer: { status: number; text: string; contentType: string | undefined }) =>
    expect(errorShapeProblems(answer.status, answer.contentType, answer.text)).toEqual([]);

  beforeEach(async () => {
    s.platform.received.length = 0;
    s.platformState.product = productRecord('Linen throw');
    s.platformState.writeAnswer = null;
    const reset = await setRule(owner, { writes: ['create', 'update', 'import'], approvals: 1, approvers: ['owner', 'editor'] });
    expect(reset.status, reset.text).toBe(200);
  });

  describe('the rule', () => {
    it('is set by an owner of the site only, recorded with what it was before', async () => {
      const byEditor = await setRule(editor, { writes: [], approvals: 1, approvers: ['owner'] });
      expect(byEditor.status).toBe(403);
      shapeOk(byEditor);
      expect((await setRule(support, { writes: [], approvals: 1, approvers: ['owner'] })).status).toBe(403);

      const set = await setRule(owner, { writes: ['create'], approvals: 2, approvers: ['owner'] });
      expect(set.status, set.text).toBe(200);
      expect(set.json).toMatchObject({ site: SITE, rule: { writes: ['create'], approvals: 2, approvers: ['owner'] }, mayChange: true });
      const rows = await s.running.site.database.db
        .selectFrom('activity')
        .selectAll()
        .where('action', '=', 'approval.rule')
        .orderBy('seq', 'desc')
        .execute();
      expect(rows[0]?.person_name).toBe('Olive Owner');
      expect(JSON.parse(rows[0]?.detail ?? '{}')).toEqual({
        site: SITE,
        before: { writes: ['create', 'update', 'import'], approvals: 1, approvers: ['owner', 'editor'] },
        after: { writes: ['create'], approvals: 2, approvers: ['owner'] },
      });

      const listed = (await s.api(editor.cookie, 'GET', APPROVAL_PATHS.rules)).json as SiteRule[];
      expect(listed).toEqual([
        expect.objectContaining({ site: SITE, mayChange: false, rule: { writes: ['create'], approvals: 2, approvers: ['owner'] } }),
      ]);
    });

    it('refuses a malformed rule with 400 in the spec’s shape, changing nothing', async () => {
      for (const bad of [
        { writes: ['delete'], approvals: 1, approvers: ['owner'] },
        { writes: ['create'], approvals: 3, approvers: ['owner'] },
        { writes: ['create'], approvals: 1, approvers: [] },
        { writes: ['create'], approvals: 1, approvers: ['support'] },
        { writes: ['create', 'create'], approvals: 1, approvers: ['owner'] },
        'not json',
      ]) {
        const answer = await setRule(owner, bad as ApprovalRule);
        expect(answer.status, answer.text).toBe(400);
        shapeOk(answer);
      }
      expect(((await s.api(owner.cookie, 'GET', APPROVAL_PATHS.rules)).json as SiteRule[])[0]?.rule.writes).toEqual([
        'create',
        'update',
        'import',
      ]);
    });
  });

  describe('asking', () => {
    it('stores the exact body with its hash and the author, recorded as asked; nothing is sent', async () => {
      const change = await askCreate(editor);
      expect(change).toMatchObject({
        site: SITE,
        kind: 'create',
        version: 1,
        state: 'pending',
        title: 'Walnut tray (walnut-tray)',
        body: CREATE_BODY,
        hash: await bodyHash(CREATE_BODY),
        author: { id: editor.id, name: 'Edith Editor' },
        approvals: 0,
        needed: 1,
        mayApprove: false,
        mayEdit: true,
        mayWithdraw: true,
        maySend: false,
      });
      expect(change.expiresAt - change.askedAt).toBe(3 * DAY);
      expect(s.writesReceived()).toEqual([]);
      const [asked] = await entries(change.id);
      expect(asked).toMatchObject({ action: 'change.asked', person_id: editor.id, site_id: SITE });
      expect(JSON.parse(asked?.detail ?? '{}')).toEqual({ change: change.id, site: SITE, kind: 'create', version: 1, hash: change.hash });
    });

    it('refuses bad bodies with 400 or 422 in the spec’s shape, storing nothing', async () => {
      const cases: [unknown, number][] = [
        [{ site: SITE, kind: 'create' }, 400],
        [{ site: SITE, kind: 'delete', body: '{}' }, 400],
        [{ site: SITE, kind: 'create', body: 'not json' }, 400],
        [{ site: SITE, kind: 'create', body: JSON.stringify({ name: 'x', enabled: 'true', colour: 'sand' }) }, 400],
        [
          {
            site: SITE,
            kind: 'create',
            body: JSON.stringify({ name: 'x', enabled: 'true', 'module_field_14/product/price/usd/1': '52.00' }),
          },
          422,
        ],
        [{ site: SITE, kind: 'update', product: '1042', base: '"abc"', before: productRecord('Linen throw'), body: UPDATE_BODY }, 400],
        [
          { site: SITE, kind: 'update', product: '1042', base: await s.fingerprint(), before: productRecord('Other'), body: UPDATE_BODY },
          422,
        ],
        [{ site: SITE, kind: 'import', importId: 'i1', items: [] }, 400],
        [{ site: SITE, kind: 'import', importId: 'i1', items: [{ key: 'a', method: 'PUT', body: UPDATE_BODY }] }, 400],
      ];
      const before = await s.running.site.database.db.selectFrom('changes').select('id').execute();
      for (const [body, status] of cases) {
        const answer = await ask(editor, body);
        expect(answer.status, `${JSON.stringify(body)}: ${answer.text}`).toBe(status);
        shapeOk(answer);
      }
      const notJson = await s.api(editor.cookie, 'POST', APPROVAL_PATHS.list, '{"site":');
      expect(notJson.status).toBe(400);
      shapeOk(notJson);
      expect(await s.running.site.database.db.selectFrom('changes').select('id').execute()).toEqual(before);
    });

    it('refuses control characters in what is stored (400 in the spec’s shape), and keeps them out of a title', async () => {
      const item = { key: 'k1', method: 'POST', body: CREATE_BODY };
      const before = await s.running.site.database.db.selectFrom('changes').select('id').execute();
      for (const body of [
        { site: SITE, kind: 'import', importId: 'x\u0000', items: [item] },
        { site: SITE, kind: 'import', importId: 'i1', items: [{ ...item, key: 'k\u0000' }] },
        { site: SITE, kind: 'import', importId: 'i1', items: [{ ...item, key: 'k\n2' }] },
        // Longer than an import's write may name it: it could be approved and never sent.
        { site: SITE, kind: 'import', importId: 'i1', items: [{ ...item, key: 'k'.repeat(101) }] },
      ]) {
        const answer = await ask(editor, body);
        expect(answer.status, answer.text).toBe(400);
        shapeOk(answer);
      }
      expect(await s.running.site.database.db.selectFrom('changes').select('id').execute()).toEqual(before);
      const longest = await ask(editor, { site: SITE, kind: 'import', importId: 'i1', items: [{ ...item, key: 'k'.repeat(100) }] });
      expect(longest.status, longest.text).toBe(201);

      const named = await askCreate(editor, JSON.stringify({ name: 'Walnut\u0000tray\u0007', slug: 'walnut-tray', enabled: 'true' }));
      expect(named.title).toBe('Walnut tray (walnut-tray)');
      expect((await entries(named.id)).at(-1)).toMatchObject({ action: 'change.asked', target_name: 'Walnut tray (walnut-tray)' });

      for (const path of [APPROVAL_PATHS.reject, APPROVAL_PATHS.override]) {
        const answer = await act(owner, path, named.id, { version: 1, reason: 'bad\u0000reason' });
        expect(answer.status, answer.text).toBe(400);
        shapeOk(answer);
        expect(answer.json).toMatchObject({ details: [{ field: 'reason', message: 'must not contain control characters' }] });
      }
      // A reason may run over lines.
      const rejected = await act(owner, APPROVAL_PATHS.reject, named.id, { version: 1, reason: 'The name:\n\tit is wrong' });
      expect(rejected.status, rejected.text).toBe(200);
    });

    it('is refused to support (403) and where the rule does not cover the kind (409)', async () => {
      const bySupport = await ask(support, { site: SITE, kind: 'create', body: CREATE_BODY });
      expect(bySupport.status).toBe(403);
      shapeOk(bySupport);
      await setRule(owner, { writes: ['update'], approvals: 1, approvers: ['owner'] });
      const uncovered = await ask(editor, { site: SITE, kind: 'create', body: CREATE_BODY });
      expect(uncovered.status).toBe(409);
      shapeOk(uncovered);
      expect((await s.api(support.cookie, 'GET', `${APPROVAL_PATHS.list}?view=open`)).json).toEqual([]);
    });
  });

  describe('approving', () => {
    it('never lets the author approve their own change, whatever their roles', async () => {
      const change = await askCreate(owner2);
      const own = await act(owner2, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect(own.status).toBe(403);
      expect(own.json).toMatchObject({ message: 'You asked for this change, so someone else must approve it.' });
      shapeOk(own);
      expect((await act(owner2, APPROVAL_PATHS.reject, change.id, { version: 1, reason: 'mine' })).status).toBe(403);
      expect((await read(owner2, change.id)).state).toBe('pending');
    });

    it('counts one person’s approval once; the needed number makes it approved; support may not approve', async () => {
      await setRule(owner, { writes: ['create'], approvals: 2, approvers: ['owner', 'editor'] });
      const change = await askCreate(editor);
      expect((await act(support, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(404);
      const first = await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect(first.status, first.text).toBe(200);
      expect(first.json).toMatchObject({ state: 'pending', approvals: 1, needed: 2, mayApprove: false });
      const again = await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect(again.status).toBe(403);
      shapeOk(again);
      expect((await read(owner, change.id)).approvals).toBe(1);
      const second = await act(editor2, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect(second.json).toMatchObject({ state: 'approved', approvals: 2 });
      expect((second.json as Change).approvedBy.map((p) => p.name).sort()).toEqual(['Ezra Editor', 'Olive Owner']);
      expect((await entries(change.id)).map((row) => row.action)).toEqual(['change.asked', 'change.approved', 'change.approved']);
    });

    it('refuses a role the rule does not name (403), a stale version (409) and a bad body (400)', async () => {
      await setRule(owner, { writes: ['create'], approvals: 1, approvers: ['owner'] });
      const change = await askCreate(editor);
      expect((await act(editor2, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(403);
      const stale = await act(owner, APPROVAL_PATHS.approve, change.id, { version: 2 });
      expect(stale.status).toBe(409);
      shapeOk(stale);
      for (const bad of [{}, { version: '1' }, { version: 1, extra: true }]) {
        const answer = await act(owner, APPROVAL_PATHS.approve, change.id, bad);
        expect(answer.status).toBe(400);
        shapeOk(answer);
      }
      expect((await s.api(owner.cookie, 'GET', changePath(APPROVAL_PATHS.one, 'no-such-change'))).status).toBe(404);
    });

    it('an edit makes a new version and voids the approvals of the old one; approving the old one is 409', async () => {
      await setRule(owner, { writes: ['create'], approvals: 1, approvers: ['owner'] });
      const change = await askCreate(editor);
      expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).json).toMatchObject({ state: 'approved' });
      const edited = JSON.stringify({ name: 'Walnut tray, large', slug: 'walnut-tray', enabled: 'true' });
      expect((await s.api(owner.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 1, body: edited })).status).toBe(403);
      const stale = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 7, body: edited });
      expect(stale.status).toBe(409);
      const bad = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 1, body: '{"name":1}' });
      expect(bad.status).toBe(400);
      shapeOk(bad);
      const answer = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 1, body: edited });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json).toMatchObject({ version: 2, state: 'pending', approvals: 0, body: edited, hash: await bodyHash(edited) });
      expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(409);
      const rows = await entries(change.id);
      expect(rows.map((row) => row.action)).toEqual(['change.asked', 'change.approved', 'change.edited']);
      expect(JSON.parse(rows[2]?.detail ?? '{}')).toMatchObject({ version: 2, hash: await bodyHash(edited), voided: 1 });
      // The old version's approved body can no longer be sent.
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      expect(s.writesReceived()).toEqual([]);
    });
  });

  describe('rejecting, withdrawing, overriding, expiry', () => {
    it('a rejection needs a reason, is recorded with it, and the author may edit and ask again', async () => {
      const change = await askCreate(editor);
      for (const reason of ['', '   ', 'x'.repeat(REASON_MAX + 1)]) {
        const answer = await act(owner, APPROVAL_PATHS.reject, change.id, { version: 1, reason });
        expect(answer.status).toBe(400);
        shapeOk(answer);
      }
      const rejected = await act(owner, APPROVAL_PATHS.reject, change.id, { version: 1, reason: 'The slug is taken' });
      expect(rejected.json).toMatchObject({ state: 'rejected', mayApprove: false });
      const rows = await entries(change.id);
      expect(JSON.parse(rows.at(-1)?.detail ?? '{}')).toMatchObject({ reason: 'The slug is taken', version: 1 });
      expect((await read(editor, change.id)).events.at(-1)).toMatchObject({ action: 'rejected', reason: 'The slug is taken' });
      expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(409);
      const edited = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), {
        version: 1,
        body: JSON.stringify({ name: 'Walnut tray', slug: 'walnut-tray-2', enabled: 'true' }),
      });
      expect(edited.json).toMatchObject({ version: 2, state: 'pending' });
      const counts = (await s.api(owner.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts;
      expect(counts.toApprove).toBeGreaterThan(0);
    });

    it('only the author withdraws; a withdrawn change is closed', async () => {
      const change = await askCreate(editor);
      expect((await act(owner, APPROVAL_PATHS.withdraw, change.id, {})).status).toBe(403);
      const withdrawn = await act(editor, APPROVAL_PATHS.withdraw, change.id, {});
      expect(withdrawn.json).toMatchObject({ state: 'withdrawn', mayEdit: false, mayWithdraw: false });
      expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(409);
      expect((await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 1, body: CREATE_BODY })).status).toBe(
        409,
      );
      expect((await act(editor, APPROVAL_PATHS.withdraw, change.id, { what: 1 })).status).toBe(400);
      expect((await entries(change.id)).map((row) => row.action)).toEqual(['change.asked', 'change.withdrawn']);
      const closed = (await s.api(editor.cookie, 'GET', `${APPROVAL_PATHS.list}?view=closed`)).json as ChangeSummary[];
      expect(closed.map((c) => c.id)).toContain(change.id);
    });

    it('an override is an owner’s only, needs a reason, is recorded and lets the author-owner send', async () => {
      const change = await askCreate(editor);
      expect((await act(editor2, APPROVAL_PATHS.override, change.id, { version: 1, reason: 'urgent' })).status).toBe(403);
      expect((await act(owner, APPROVAL_PATHS.override, change.id, { version: 1, reason: ' ' })).status).toBe(400);
      const overridden = await act(owner, APPROVAL_PATHS.override, change.id, { version: 1, reason: 'Price error live now' });
      expect(overridden.json).toMatchObject({
        state: 'approved',
        approvals: 0,
        override: { by: { id: owner.id, name: 'Olive Owner' }, reason: 'Price error live now' },
      });
      const rows = await entries(change.id);
      expect(rows.at(-1)).toMatchObject({ action: 'change.overridden', person_id: owner.id });
      expect(JSON.parse(rows.at(-1)?.detail ?? '{}')).toMatchObject({ reason: 'Price error live now' });
      // A team of two: an owner who asked may override their own.
      const own = await askCreate(owner);
      expect((await act(owner, APPROVAL_PATHS.override, own.id, { version: 1, reason: 'alone today' })).json).toMatchObject({
        state: 'approved',
      });
      const sent = await s.write(owner.cookie, { kind: 'create', body: CREATE_BODY, change: own.id });
      expect(sent.status, sent.text).toBe(200);
      expect(s.writesReceived().map((r) => r.body)).toEqual([CREATE_BODY]);
      // The send's own entry says it went without approval, and why.
      const sentEntry = (await entries(own.id)).find((row) => row.action === 'change.sent');
      expect(JSON.parse(sentEntry?.detail ?? '{}')).toMatchObject({ override: true, reason: 'alone today' });
    });

    it('an override counts only while whoever gave it is still an owner of the site', async () => {
      const former = await s.person([{ siteId: SITE, role: 'owner' }], 'Fay Former');
      const change = await askCreate(editor);
      expect((await act(former, APPROVAL_PATHS.override, change.id, { version: 1, reason: 'urgent' })).json).toMatchObject({
        state: 'approved',
      });
      await s.running.site.accounts.people.setGrants(former.id, [{ siteId: SITE, role: 'editor' }], s.clock.t);
      expect(await read(editor, change.id)).toMatchObject({ state: 'pending', override: null, maySend: false });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      expect(s.writesReceived()).toEqual([]);
    });

    it('a change expires after APPROVAL_EXPIRY_DAYS, recorded once by nobody, and can no longer be approved or sent', async () => {
      const change = await askCreate(editor);
      expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).json).toMatchObject({ state: 'approved' });
      s.clock.t += 3 * DAY;
      try {
        expect((await read(editor, change.id)).state).toBe('expired');
        expect((await read(owner, change.id)).state).toBe('expired');
        expect((await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 })).status).toBe(409);
        expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
        const expired = (await entries(change.id)).filter((row) => row.action === 'change.expired');
        expect(expired).toHaveLength(1);
        expect(expired[0]).toMatchObject({ actor_kind: 'anonymous', person_id: null });
      } finally {
        s.clock.t += 1000;
      }
      expect(s.writesReceived()).toEqual([]);
    });
  });

  it('counts for the navigation what the lists show: changes the person may approve now, and their own sent back to them', async () => {
    const mine = await askCreate(editor);
    await act(owner, APPROVAL_PATHS.reject, mine.id, { version: 1, reason: 'No' });
    await askCreate(editor2);
    for (const who of [owner, owner2, editor, editor2, support]) {
      const counts = (await s.api(who.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts;
      const toApprove = (await s.api(who.cookie, 'GET', `${APPROVAL_PATHS.list}?view=to-approve`)).json as ChangeSummary[];
      const own = (await s.api(who.cookie, 'GET', `${APPROVAL_PATHS.list}?view=mine`)).json as ChangeSummary[];
      expect(counts).toEqual({
        toApprove: toApprove.length,
        returned: own.filter((c) => c.state === 'returned' || c.state === 'rejected').length,
      });
      expect(toApprove.every((c) => c.mayApprove && c.author.id !== who.id)).toBe(true);
    }
    expect(((await s.api(editor.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).returned).toBeGreaterThan(0);
    expect(((await s.api(owner.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).toApprove).toBeGreaterThan(0);
    expect((await s.api(support.cookie, 'GET', APPROVAL_PATHS.counts)).json).toEqual({ toApprove: 0, returned: 0 });
    // One with its approvals already waits to be sent: nobody counts it as theirs to approve.
    const approved = await askCreate(editor2);
    const before = ((await s.api(owner.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).toApprove;
    expect((await act(owner2, APPROVAL_PATHS.approve, approved.id, { version: 1 })).json).toMatchObject({ state: 'approved' });
    expect(((await s.api(owner.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).toApprove).toBe(before - 1);
    const lists = (await s.api(owner.cookie, 'GET', `${APPROVAL_PATHS.list}?view=to-approve`)).json as ChangeSummary[];
    expect(lists.map((c) => c.id)).not.toContain(approved.id);
    expect(await read(owner, approved.id)).toMatchObject({ state: 'approved', mayApprove: false, maySend: true });
    const badView = await s.api(owner.cookie, 'GET', `${APPROVAL_PATHS.list}?view=everything`);
    expect(badView.status).toBe(400);
    shapeOk(badView);
  });

  it('changes nothing unrecorded: with the record refusing entries, asking and approving are 503 and undone', async () => {
    const change = await askCreate(editor);
    const before = await s.running.site.database.db.selectFrom('changes').select('id').execute();
    const putBack = await refuseActivityEntries(s.running.site.database.db, engine);
    try {
      const asked = await ask(editor, { site: SITE, kind: 'create', body: CREATE_BODY });
      expect(asked.status).toBe(503);
      expect(asked.json).toMatchObject({ code: 503, message: expect.stringContaining('activity record') });
      const approved = await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect(approved.status).toBe(503);
      const withdrawn = await act(editor, APPROVAL_PATHS.withdraw, change.id, {});
      expect(withdrawn.status).toBe(503);
    } finally {
      await putBack();
    }
    expect(await s.running.site.database.db.selectFrom('changes').select('id').execute()).toEqual(before);
    expect(await read(owner, change.id)).toMatchObject({ state: 'pending', approvals: 0, mayApprove: true });
  });

  describe('the server’s enforcement of a site’s writes', () => {
    it('refuses a covered write without an approved change: 403 in the spec’s shape, nothing forwarded', async () => {
      const create = await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY });
      expect(create.status).toBe(403);
      shapeOk(create);
      expect(create.json).toMatchObject({
        message: expect.stringMatching(
          /^Writes of new products to .+ need a second person’s approval\. Ask for approval instead\. Nothing was sent\.$/,
        ),
        details: [{ field: 'x-approved-change', message: 'is required on this site' }],
      });
      expect((await s.write(owner.cookie, { kind: 'update', body: UPDATE_BODY })).status).toBe(403);
      const pending = await askCreate(editor);
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: pending.id })).status).toBe(403);
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: 'made-up' })).status).toBe(403);
      expect(s.writesReceived()).toEqual([]);
    });

    it('refuses a body whose hash is not the approved one; sends the approved one exactly, once; links the entries', async () => {
      const change = await askCreate(editor);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      // The same JSON, written differently: not the bytes approved.
      const respaced = JSON.stringify(JSON.parse(CREATE_BODY), null, 1);
      const other = await s.write(editor.cookie, { kind: 'create', body: respaced, change: change.id });
      expect(other.status).toBe(403);
      shapeOk(other);
      expect(s.writesReceived()).toEqual([]);

      const sent = await s.write(editor2.cookie, { kind: 'create', body: CREATE_BODY, change: change.id });
      expect(sent.status, sent.text).toBe(200);
      expect(s.writesReceived().map((r) => r.body)).toEqual([CREATE_BODY]);
      expect(s.writesReceived()[0]?.headers['x-approved-change']).toBeUndefined();
      const again = await s.write(editor2.cookie, { kind: 'create', body: CREATE_BODY, change: change.id });
      expect(again.status).toBe(409);
      shapeOk(again);
      expect(s.writesReceived()).toHaveLength(1);

      const after = await read(editor, change.id);
      expect(after.state).toBe('sent');
      const rows = await entries(change.id);
      const write = rows.find((row) => row.action === 'product.create');
      const sentEntry = rows.find((row) => row.action === 'change.sent');
      expect(JSON.parse(write?.detail ?? '{}')).toMatchObject({ body: CREATE_BODY, change: change.id });
      expect(JSON.parse(sentEntry?.detail ?? '{}')).toMatchObject({
        change: change.id,
        version: 1,
        hash: change.hash,
        write: Number(write?.seq),
        outcome: 'done',
      });
      expect(after.events.at(-1)).toMatchObject({ action: 'sent', write: Number(write?.seq) });
    });

    it('counts approvals again at send time: an approver no longer holding an approver role, or a stricter rule, leaves it unsent', async () => {
      await setRule(owner, { writes: ['create'], approvals: 1, approvers: ['owner', 'editor'] });
      const demoted = await s.person([{ siteId: SITE, role: 'editor' }], 'Dana Demoted');
      const change = await askCreate(editor);
      expect((await act(demoted, APPROVAL_PATHS.approve, change.id, { version: 1 })).json).toMatchObject({ state: 'approved' });
      await s.running.site.accounts.people.setGrants(demoted.id, [{ siteId: SITE, role: 'support' }], s.clock.t);
      expect((await read(editor, change.id)).state).toBe('pending');
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      await s.running.site.accounts.people.setGrants(demoted.id, [{ siteId: SITE, role: 'editor' }], s.clock.t);
      expect((await read(editor, change.id)).state).toBe('approved');
      await setRule(owner, { writes: ['create'], approvals: 1, approvers: ['owner'] });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      await setRule(owner, { writes: ['create'], approvals: 2, approvers: ['owner', 'editor'] });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      expect(s.writesReceived()).toEqual([]);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(200);
      expect(s.writesReceived()).toHaveLength(1);
    });

    it('sends an approved change once when two writes carry it at the same moment', async () => {
      const change = await askCreate(editor);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      const answers = await Promise.all([
        s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id }),
        s.write(editor2.cookie, { kind: 'create', body: CREATE_BODY, change: change.id }),
        s.write(owner.cookie, { kind: 'create', body: CREATE_BODY, change: change.id }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
      expect(s.writesReceived()).toHaveLength(1);
    });

    it('settles a claimed change by what the platform’s answer means: not processed or the key refused → approved again, refused → returned', async () => {
      const change = await askCreate(editor);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      s.platformState.writeAnswer = { status: 429, body: JSON.stringify({ error: 'Too Many Requests', message: 'Slow down', code: 429 }) };
      try {
        const busy = await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id });
        expect(busy.status).toBe(429);
        // Not taken, and safe to send again: still approved, not sent.
        expect(await read(editor, change.id)).toMatchObject({ state: 'approved', maySend: true });
        expect((await entries(change.id)).map((row) => row.action)).not.toContain('change.sent');

        // The platform refuses the site's key, not the change: still approved, to send once the key is put right.
        s.platformState.writeAnswer = {
          status: 403,
          body: JSON.stringify({ error: 'Forbidden', message: 'Key lacks ecommerce', code: 403 }),
        };
        expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
        expect(await read(editor, change.id)).toMatchObject({ state: 'approved', maySend: true });

        s.platformState.writeAnswer = {
          status: 400,
          body: JSON.stringify({ error: 'Bad Request', message: 'The slug is in use\u0000', code: 400 }),
        };
        const refused = await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id });
        expect(refused.status).toBe(400);
      } finally {
        s.platformState.writeAnswer = null;
      }
      const after = await read(editor, change.id);
      expect(after).toMatchObject({ state: 'returned', mayEdit: true, maySend: false });
      expect(after.events.at(-1)).toMatchObject({ action: 'returned', reason: expect.stringContaining('The slug is in use') });
      const rows = await entries(change.id);
      expect(rows.map((row) => row.action)).not.toContain('change.sent');
      expect(rows.at(-1)).toMatchObject({ action: 'change.returned' });
      expect(JSON.parse(rows.at(-1)?.detail ?? '{}')).toMatchObject({ reason: expect.stringContaining('(400): The slug is in use') });
      expect(((await s.api(editor.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).returned).toBeGreaterThan(0);
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(403);
      expect(s.writesReceived()).toHaveLength(3);
    });

    it('holds back a write carrying an import’s header where the rule covers its create or update', async () => {
      await setRule(owner, { writes: ['create'], approvals: 1, approvers: ['owner'] });
      const crafted = await s.write(editor.cookie, {
        kind: 'create',
        body: CREATE_BODY,
        headers: { 'x-import-product': 'my-import/row-1', 'x-import-runner': 'my-run' },
      });
      expect(crafted.status, crafted.text).toBe(403);
      shapeOk(crafted);
      expect(s.writesReceived()).toEqual([]);
    });

    it('a change left sending by a server that stopped midway counts as sent (outcome unknown), never sent again', async () => {
      const change = await askCreate(editor);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      // As a write's claim leaves it when the server stops before the answer settles it.
      await s.running.site.database.db
        .updateTable('changes')
        .set({ state: 'sending', updated_at: s.clock.t })
        .where('id', '=', change.id)
        .execute();
      expect((await read(editor, change.id)).state).toBe('sending');
      s.clock.t += 2 * 15_000 + 60_000 + 1000;
      const after = await read(editor, change.id);
      expect(after).toMatchObject({ state: 'sent', maySend: false });
      const sentEntry = (await entries(change.id)).find((row) => row.action === 'change.sent');
      expect(JSON.parse(sentEntry?.detail ?? '{}')).toMatchObject({ outcome: 'unknown', recovered: true });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: change.id })).status).toBe(409);
      expect(s.writesReceived()).toEqual([]);
    });

    it('checks a header on a write the rule does not cover all the same', async () => {
      await setRule(owner, { writes: ['update'], approvals: 1, approvers: ['owner'] });
      expect((await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY, change: 'made-up' })).status).toBe(403);
      expect(s.writesReceived()).toEqual([]);
      const plain = await s.write(editor.cookie, { kind: 'create', body: CREATE_BODY });
      expect(plain.status, plain.text).toBe(200);
    });

    it('an update approved and sent after the product changed on the platform: 412, nothing sent, returned to its author', async () => {
      const base = await s.fingerprint();
      const asked = await ask(editor, {
        site: SITE,
        kind: 'update',
        product: '1042',
        base,
        before: s.platformState.product,
        body: UPDATE_BODY,
      });
      expect(asked.status, asked.text).toBe(201);
      const change = asked.json as Change;
      expect(change.title).toBe('Linen throw, sand');
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 1 });
      s.platformState.product = productRecord('Linen throw (changed in the platform’s admin)');
      const answer = await s.write(editor.cookie, { kind: 'update', body: UPDATE_BODY, change: change.id, base });
      expect(answer.status).toBe(412);
      expect(s.writesReceived()).toEqual([]);
      const after = await read(editor, change.id);
      expect(after).toMatchObject({ state: 'returned', mayEdit: true });
      expect(after.events.at(-1)).toMatchObject({ action: 'returned', reason: expect.stringContaining('changed on the platform') });
      expect(((await s.api(editor.cookie, 'GET', APPROVAL_PATHS.counts)).json as ChangeCounts).returned).toBeGreaterThan(0);
      // Edited against the product as it is now, approved again, it is sent.
      const now = await s.fingerprint();
      const edited = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), {
        version: 1,
        base: now,
        before: s.platformState.product,
        body: UPDATE_BODY,
      });
      expect(edited.status, edited.text).toBe(200);
      await act(owner, APPROVAL_PATHS.approve, change.id, { version: 2 });
      const sent = await s.write(editor.cookie, { kind: 'update', body: UPDATE_BODY, change: change.id, base: now });
      expect(sent.status, sent.text).toBe(200);
      expect(s.writesReceived().map((r) => r.body)).toEqual([UPDATE_BODY]);
    });
  });
});
