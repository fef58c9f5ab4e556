/**
 * An import under a rule that holds imports back, through the whole server: its set of exact bodies is
 * asked for and approved as a whole; each row's write must carry the change and be byte for byte the body
 * of its item; a row is still sent once (the import's own claim); a change to any row is a new version
 * whose approvals start again; the change is sent when the import's run is released as finished.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { APPROVAL_PATHS, changePath, importSetHash, rulePath, type Change, type ImportItem } from '../../src/contract/approvals';
import { IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, IMPORTS_PATHS, importPath } from '../../src/contract/imports';
import { describeEachEngine } from '../testing/postgres';
import { startApprovalServer, type ApprovalServer } from '../testing/approval-kit';
import { errorShapeProblems } from '../testing/test-helpers';

const SITE = 'main';
const FILE = {
  fileName: 'linen.csv',
  source: { kind: 'pasted' },
  delimiter: ',',
  headers: ['Name', 'Slug'],
  rows: [
    ['Linen throw', 'linen-0'],
    ['Linen throw', 'linen-1'],
  ],
};
const WORK = { mapping: ['name', 'slug'], fixes: {}, concurrency: 4, started: false, products: 2 };
const body = (slug: string) => JSON.stringify({ name: 'Linen throw', slug, enabled: 'true' });

describeEachEngine('an approved import', (_engine, freshDatabase) => {
  let s: ApprovalServer;
  let owner: Awaited<ReturnType<ApprovalServer['person']>>;
  let editor: Awaited<ReturnType<ApprovalServer['person']>>;

  beforeAll(async () => {
    s = await startApprovalServer(await freshDatabase());
    owner = await s.person([{ siteId: SITE, role: 'owner' }], 'Olive Owner');
    editor = await s.person([{ siteId: SITE, role: 'editor' }], 'Edith Editor');
  }, 60_000);
  afterAll(() => s.stop());

  it('sends each row only as the approved body of its item, once, and the change is sent when the run finishes', async () => {
    expect((await s.api(owner.cookie, 'PUT', rulePath(SITE), { writes: ['import'], approvals: 1, approvers: ['owner'] })).status).toBe(200);
    const created = await s.api(editor.cookie, 'POST', IMPORTS_PATHS.list, { site: SITE, file: FILE, work: WORK });
    expect(created.status, created.text).toBe(201);
    const importId = (created.json as { id: string }).id;
    const items: ImportItem[] = [
      { key: '0', method: 'POST', body: body('linen-0') },
      { key: '1', method: 'POST', body: body('linen-1') },
    ];
    const asked = await s.api(editor.cookie, 'POST', APPROVAL_PATHS.list, { site: SITE, kind: 'import', importId, items });
    expect(asked.status, asked.text).toBe(201);
    const change = asked.json as Change;
    expect(change).toMatchObject({ kind: 'import', title: '2 products', importId, hash: await importSetHash(items) });

    const run = await s.api(editor.cookie, 'POST', importPath(IMPORTS_PATHS.run, importId), {});
    expect(run.status, run.text).toBe(200);
    const runner = (run.json as { runner: string }).runner;
    const row = (key: string, text: string, withChange: string | undefined = change.id) =>
      s.write(editor.cookie, {
        kind: 'create',
        body: text,
        change: withChange,
        headers: { [IMPORT_PRODUCT_HEADER]: `${importId}/${key}`, [IMPORT_RUNNER_HEADER]: runner },
      });

    // Not approved yet; and without the change at all.
    expect((await row('0', body('linen-0'))).status).toBe(403);
    const without = await row('0', body('linen-0'), undefined);
    expect(without.status).toBe(403);
    expect(errorShapeProblems(403, without.contentType, without.text)).toEqual([]);
    expect(s.writesReceived()).toEqual([]);

    // A change to a row is a new version: the approval of the old set no longer holds.
    expect((await s.api(owner.cookie, 'POST', changePath(APPROVAL_PATHS.approve, change.id), { version: 1 })).status).toBe(200);
    const edited = [items[0]!, { key: '1', method: 'POST' as const, body: body('linen-1b') }];
    const edit = await s.api(editor.cookie, 'PUT', changePath(APPROVAL_PATHS.one, change.id), { version: 1, items: edited });
    expect(edit.json).toMatchObject({ version: 2, state: 'pending', approvals: 0, hash: await importSetHash(edited) });
    expect((await row('0', body('linen-0'))).status).toBe(403);
    expect((await s.api(owner.cookie, 'POST', changePath(APPROVAL_PATHS.approve, change.id), { version: 2 })).json).toMatchObject({
      state: 'approved',
    });

    // Row 1 as it was before the edit: not the approved body.
    expect((await row('1', body('linen-1'))).status).toBe(403);
    const first = await row('0', body('linen-0'));
    expect(first.status, first.text).toBe(200);
    // The import's own guarantee holds: the same row is never sent twice.
    expect((await row('0', body('linen-0'))).status).toBe(409);
    expect((await s.read(change.id, editor)).state).toBe('approved');
    const second = await row('1', body('linen-1b'));
    expect(second.status, second.text).toBe(200);
    expect(s.writesReceived().map((r) => r.body)).toEqual([body('linen-0'), body('linen-1b')]);

    const released = await s.api(editor.cookie, 'POST', importPath(IMPORTS_PATHS.release, importId), { runner, finished: true });
    expect(released.status, released.text).toBe(204);
    const after = await s.read(change.id, editor);
    expect(after.state).toBe('sent');
    const rows = await s.running.site.database.db.selectFrom('activity').selectAll().orderBy('seq').execute();
    const writes = rows.filter((r) => r.action === 'product.create');
    expect(writes.map((r) => JSON.parse(r.detail ?? '{}') as { change?: string }).map((d) => d.change)).toEqual([change.id, change.id]);
    const sent = rows.find((r) => r.action === 'change.sent');
    expect(JSON.parse(sent?.detail ?? '{}')).toMatchObject({ change: change.id, kind: 'import', version: 2, import: importId });
  });
});
