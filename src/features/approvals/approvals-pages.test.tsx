/**
 * The Approvals pages against a stand-in of our server answering through fetch (it holds changes and says
 * what the person may do with each, as the server does; it takes the create or update an approved change
 * sends): the list's views and states, an owner's rule, and a change's page as its author, an approver and
 * an owner see it.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPROVED_CHANGE_HEADER, type ApprovalRule, type Change, type ChangeSummary } from '@/contract/approvals';
import { PATHS } from '@/lib/paths';
import { Route, Routes, useLocation } from '@/lib/router';
import { render } from '@/test/render';
import { ApprovalsPage } from './approvals-page';
import { ChangePage } from './change-page';

const CREATE_BODY = '{"name":"Linen throw","slug":"linen-throw","enabled":"true"}';
const NOW = Date.now();
const ANN = { id: 'ann', name: 'Ann Lee' };
const BEN = { id: 'ben', name: 'Ben Ode' };

function change(over: Partial<Change> = {}): Change {
  return {
    id: 'ch1',
    site: 'main',
    kind: 'create',
    version: 1,
    state: 'pending',
    title: 'Linen throw (linen-throw)',
    product: null,
    author: ANN,
    askedAt: NOW - 3_600_000,
    expiresAt: NOW + 6 * 86_400_000,
    approvals: 0,
    needed: 1,
    mayApprove: false,
    hash: 'sha256-1111111111111111111111111111111111111111111111111111111111111111',
    body: CREATE_BODY,
    base: null,
    before: null,
    revertOf: null,
    importId: null,
    items: null,
    approvedBy: [],
    approvers: ['owner', 'editor'],
    override: null,
    events: [{ action: 'asked', version: 1, by: ANN, at: NOW - 3_600_000, seq: 7 }],
    mayEdit: false,
    mayWithdraw: false,
    mayOverride: false,
    maySend: false,
    ...over,
  };
}

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Our server as the pages see it, for `person` (owner of the site or not): the change's flags follow its
 * rules (its author never approves; an approval that makes enough approves it; an owner may override).
 */
function server({
  person,
  owner = false,
  changes = [change()],
}: {
  person: { id: string; name: string };
  owner?: boolean;
  changes?: Change[];
}) {
  const state = {
    changes: new Map(changes.map((one) => [one.id, one])),
    rule: { writes: ['create'], approvals: 1, approvers: ['owner', 'editor'] } as ApprovalRule,
    calls: [] as Call[],
    failList: false,
    sendAnswer: null as Response | null,
  };
  const flags = (one: Change): Change => {
    const open = one.state === 'pending' || one.state === 'approved';
    const mine = one.author.id === person.id;
    return {
      ...one,
      // As the server: a pending or an approved change may be approved (or overridden) again.
      mayApprove: open && !mine && !one.approvedBy.some((by) => by.id === person.id),
      mayEdit: mine && (open || one.state === 'rejected' || one.state === 'returned'),
      mayWithdraw: mine && open,
      mayOverride: owner && open,
      maySend: one.state === 'approved',
    };
  };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const refused = (status: number, message: string) => json(status, { error: 'Refused', message, code: status });
  const summary = (one: Change): ChangeSummary => {
    const { id, site, kind, version, state: at, title, product, author, askedAt, expiresAt, approvals, needed, mayApprove } = flags(one);
    return { id, site, kind, version, state: at, title, product, author, askedAt, expiresAt, approvals, needed, mayApprove };
  };
  const event = (one: Change, action: Change['events'][number]['action'], reason?: string) =>
    one.events.push({ action, version: one.version, by: person, at: Date.now(), ...(reason ? { reason } : {}) });

  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? init.body : '';
    state.calls.push({ method, url, headers: (init.headers ?? {}) as Record<string, string>, body });
    const path = new URL(url, 'http://x');
    if (path.pathname === '/api/approval-rules' && method === 'GET') {
      return Promise.resolve(json(200, [{ site: 'main', rule: state.rule, changedAt: null, changedBy: null, mayChange: owner }]));
    }
    if (path.pathname === '/api/approval-rules/main' && method === 'PUT') {
      if (!owner) return Promise.resolve(refused(403, 'Only an owner of the site may change its rule.'));
      state.rule = JSON.parse(body) as ApprovalRule;
      return Promise.resolve(json(200, { site: 'main', rule: state.rule, changedAt: Date.now(), changedBy: person, mayChange: true }));
    }
    if (path.pathname === '/api/changes' && method === 'GET') {
      if (state.failList) return Promise.resolve(refused(500, 'The database is not answering.'));
      const view = path.searchParams.get('view');
      const list = [...state.changes.values()].filter((one) => {
        const open = ['pending', 'approved', 'sending', 'returned'].includes(one.state);
        if (view === 'to-approve') return flags(one).mayApprove;
        if (view === 'mine') return one.author.id === person.id;
        if (view === 'open') return open;
        return !open;
      });
      return Promise.resolve(json(200, list.map(summary)));
    }
    const match = /^\/api\/changes\/([^/]+)(?:\/(\w+))?$/.exec(path.pathname);
    if (match) {
      const one = state.changes.get(decodeURIComponent(match[1] ?? ''));
      if (!one) return Promise.resolve(refused(404, 'No such change.'));
      const action = match[2];
      const asked = body ? (JSON.parse(body) as { version?: number; reason?: string }) : {};
      if (action === 'approve') {
        if (one.author.id === person.id)
          return Promise.resolve(refused(403, 'You asked for this change, so someone else must approve it.'));
        one.approvedBy.push({ ...person, at: Date.now() });
        one.approvals += 1;
        if (one.approvals >= one.needed) one.state = 'approved';
        event(one, 'approved');
      } else if (action === 'reject') {
        one.state = 'rejected';
        event(one, 'rejected', asked.reason);
      } else if (action === 'withdraw') {
        one.state = 'withdrawn';
        event(one, 'withdrawn');
      } else if (action === 'override') {
        one.override = { by: person, at: Date.now(), reason: asked.reason ?? '' };
        one.state = 'approved';
        event(one, 'overridden', asked.reason);
      }
      return Promise.resolve(json(200, flags(one)));
    }
    if (path.pathname.startsWith('/api/s/main/site/v2/ecommerce/products')) {
      if (state.sendAnswer) return Promise.resolve(state.sendAnswer);
      const id = (init.headers as Record<string, string>)[APPROVED_CHANGE_HEADER];
      const sent = id ? state.changes.get(id) : undefined;
      if (sent) {
        sent.state = 'sent';
        event(sent, 'sent');
      }
      return Promise.resolve(json(200, { id: '501', ...(JSON.parse(body) as object) }));
    }
    return Promise.resolve(refused(404, `No ${method} ${url} in this stand-in.`));
  });
  return state;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Where the editor was opened, and with what history state. */
function EditorStandIn() {
  const location = useLocation();
  return <p data-testid="editor">{`${location.pathname} ${JSON.stringify(location.state)}`}</p>;
}

function openChange(id = 'ch1') {
  return render(
    <Routes>
      <Route path={PATHS.approval} element={<ChangePage />} />
      <Route path={PATHS.newProduct} element={<EditorStandIn />} />
      <Route path={PATHS.catalogueProduct} element={<EditorStandIn />} />
    </Routes>,
    { route: `/approvals/${id}` },
  );
}

const openList = (route = '/approvals') =>
  render(
    <Routes>
      <Route path={PATHS.approvals} element={<ApprovalsPage />} />
    </Routes>,
    { route },
  );

describe('the Approvals list', () => {
  it('shows the changes waiting for the person, each a link to its page, and an empty view in words', async () => {
    server({ person: BEN });
    const user = userEvent.setup();
    openList();
    const list = await screen.findByRole('list', { name: 'Changes: To approve' });
    const link = within(list).getByRole('link', { name: 'Linen throw (linen-throw)' });
    expect(link).toHaveAttribute('href', '/approvals/ch1');
    expect(within(list).getByText('Yours to approve')).toBeInTheDocument();
    expect(within(list).getByText(/Ann Lee · asked/)).toHaveTextContent('0 of 1 approval');
    await user.click(screen.getByRole('tab', { name: 'Mine' }));
    expect(await screen.findByText('You have not asked for approval of any change.')).toBeInTheDocument();
  });

  it('says why the list could not be loaded, and Try again loads it', async () => {
    const state = server({ person: BEN });
    state.failList = true;
    const user = userEvent.setup();
    openList('/approvals?view=open');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The changes could not be loaded');
    state.failList = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Linen throw (linen-throw)' })).toBeInTheDocument();
  });

  it('lets an owner of the site change its rule, and saves exactly what was chosen', async () => {
    const state = server({ person: BEN, owner: true });
    const user = userEvent.setup();
    openList();
    const panel = await screen.findByRole('region', { name: 'Approval rule of Sandbox' });
    const save = within(panel).getByRole('button', { name: 'Save rule' });
    expect(save).toBeDisabled();
    await user.click(within(panel).getByRole('checkbox', { name: 'Corrections of products' }));
    await user.click(within(panel).getByRole('radio', { name: '2 people' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Editors' }));
    await user.click(save);
    expect(await within(panel).findByRole('status')).toHaveTextContent(
      'Saved. New products, corrections of products need two approvals from owners of the site',
    );
    const put = state.calls.find((call) => call.method === 'PUT');
    expect(JSON.parse(put?.body ?? '')).toEqual({ writes: ['create', 'update'], approvals: 2, approvers: ['owner'] });
  });

  it('refuses a rule nobody may approve under, before asking the server', async () => {
    const state = server({ person: BEN, owner: true });
    const user = userEvent.setup();
    openList();
    const panel = await screen.findByRole('region', { name: 'Approval rule of Sandbox' });
    await user.click(within(panel).getByRole('checkbox', { name: 'Owners' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Editors' }));
    await user.click(within(panel).getByRole('button', { name: 'Save rule' }));
    expect(await within(panel).findByText('must name at least one role')).toBeInTheDocument();
    expect(state.calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('shows a person who may not change the rule what it is, without the form', async () => {
    server({ person: BEN });
    openList();
    expect(await screen.findByText(/New products need one approval from owners or editors of the site/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save rule' })).not.toBeInTheDocument();
  });
});

describe('a change’s page', () => {
  it('shows its author no Approve, and opens the editor on the change for Edit', async () => {
    server({ person: ANN });
    const user = userEvent.setup();
    openChange();
    expect(await screen.findByRole('heading', { level: 1, name: 'Linen throw (linen-throw)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reject…' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Withdraw…' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(await screen.findByTestId('editor')).toHaveTextContent('/products/new {"change":"ch1","version":1}');
  });

  it('shows a create as the editor’s Review, read-only, with the exact body and its hash', async () => {
    server({ person: BEN });
    openChange();
    const basics = await screen.findByRole('region', { name: 'Basics' });
    expect(within(basics).getByText('Linen throw')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Edit / })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'JSON to send' })).toHaveTextContent('"slug": "linen-throw"');
    expect(screen.getByTestId('change-hash')).toHaveTextContent(change().hash);
  });

  it('sends the stored body byte for byte when the approval given is the last one needed', async () => {
    const state = server({ person: BEN });
    const user = userEvent.setup();
    openChange();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The platform accepted it (product 501)');
    const sent = state.calls.filter((call) => call.url.startsWith('/api/s/'));
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toBe(CREATE_BODY);
    expect(sent[0]?.headers[APPROVED_CHANGE_HEADER]).toBe('ch1');
  });

  it('approves without sending while more approvals are needed', async () => {
    const state = server({ person: BEN, changes: [change({ needed: 2 })] });
    const user = userEvent.setup();
    openChange();
    expect(await screen.findByText('After yours, 1 more needed before it can be sent.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument());
    expect(screen.getByText(/1 of 2 approvals: Ben Ode/)).toBeInTheDocument();
    expect(state.calls.some((call) => call.url.startsWith('/api/s/'))).toBe(false);
  });

  it('needs a reason to reject, and shows the rejection with it', async () => {
    const state = server({ person: BEN });
    const user = userEvent.setup();
    openChange();
    await user.click(await screen.findByRole('button', { name: 'Reject…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this change' });
    expect(dialog).toHaveTextContent('“Linen throw (linen-throw)” on Sandbox goes back to Ann Lee');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Say why: the reason is required, and recorded.')).toBeInTheDocument();
    expect(state.calls.some((call) => call.url.endsWith('/reject'))).toBe(false);
    await user.type(within(dialog).getByRole('textbox', { name: /Why it is rejected/ }), 'The price is in cents, not dollars');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(
      await screen.findByText('“The price is in cents, not dollars” Nothing was sent; Ann Lee may edit it and ask again.'),
    ).toBeInTheDocument();
    expect(JSON.parse(state.calls.find((call) => call.url.endsWith('/reject'))?.body ?? '')).toEqual({
      version: 1,
      reason: 'The price is in cents, not dollars',
    });
  });

  it('lets an owner send without approval only with a reason, after a confirmation naming the product', async () => {
    const state = server({ person: BEN, owner: true });
    const user = userEvent.setup();
    openChange();
    await user.click(await screen.findByRole('button', { name: 'Send without approval…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send without approval' });
    expect(dialog).toHaveTextContent('“Linen throw (linen-throw)” on Sandbox will be sent without a second person’s approval');
    expect(dialog).toHaveTextContent('This is recorded as sent without approval, with your name and your reason');
    await user.click(within(dialog).getByRole('button', { name: 'Send without approval' }));
    expect(await within(dialog).findByText('Say why: the reason is required, and recorded.')).toBeInTheDocument();
    expect(state.calls.some((call) => call.url.endsWith('/override') || call.url.startsWith('/api/s/'))).toBe(false);
    await user.type(within(dialog).getByRole('textbox', { name: /Why it cannot wait/ }), 'Ann is away; the sale starts at noon');
    await user.click(within(dialog).getByRole('button', { name: 'Send without approval' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The platform accepted it');
    expect(screen.getByText('Allowed without approval by Ben Ode, an owner')).toBeInTheDocument();
    const sent = state.calls.filter((call) => call.url.startsWith('/api/s/'));
    expect(sent.map((call) => call.body)).toEqual([CREATE_BODY]);
  });

  it('shows an update as the change list from the product as read to the body', async () => {
    server({
      person: BEN,
      changes: [
        change({
          kind: 'update',
          product: '12',
          base: '"sha256-2222222222222222222222222222222222222222222222222222222222222222"',
          before: '{"id":"12","name":"Linen throw","slug":"linen-throw","enabled":"true","created_at":"1","updated_at":"1"}',
          body: '{"name":"Linen throw, washed"}',
        }),
      ],
    });
    openChange();
    const table = await screen.findByRole('table', { name: 'Changes to product 12' });
    const row = within(table).getByRole('row', { name: /Name/ });
    expect(row).toHaveTextContent('Linen throw');
    expect(row).toHaveTextContent('Linen throw, washed');
  });

  it('says an update went back to its author when the product changed since (412), and nothing was sent', async () => {
    const state = server({
      person: BEN,
      owner: true,
      changes: [
        change({
          kind: 'update',
          state: 'approved',
          approvals: 1,
          product: '12',
          base: '"sha256-2222222222222222222222222222222222222222222222222222222222222222"',
          before: '{"id":"12","name":"Linen throw","created_at":"1","updated_at":"1"}',
          body: '{"name":"Linen throw, washed"}',
        }),
      ],
    });
    state.sendAnswer = new Response(
      JSON.stringify({ error: 'Precondition Failed', message: 'The product changed since it was read.', code: 412 }),
      {
        status: 412,
        headers: { 'content-type': 'application/json' },
      },
    );
    const user = userEvent.setup();
    openChange();
    // Approved: Send now is the way on, not another approval or an override.
    await user.click(await screen.findByRole('button', { name: 'Send now' }));
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send without approval…' })).not.toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not sent: the product changed since');
    expect(alert).toHaveTextContent('it went back to its author');
  });

  it('takes the author of a returned update straight to editing it against the product as it is now', async () => {
    server({
      person: ANN,
      changes: [
        change({
          kind: 'update',
          state: 'returned',
          product: '12',
          base: '"sha256-2222222222222222222222222222222222222222222222222222222222222222"',
          before: '{"id":"12","name":"Linen throw","created_at":"1","updated_at":"1"}',
          body: '{"name":"Linen throw, washed"}',
        }),
      ],
    });
    const user = userEvent.setup();
    openChange();
    expect(await screen.findByText('Back with its author: nothing was sent')).toBeInTheDocument();
    expect(screen.getByText(/shows what changed there beside this change’s edits, field by field/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit against the product as it is now' }));
    expect(await screen.findByTestId('editor')).toHaveTextContent('/catalogue/12 {"change":"ch1","version":1}');
  });

  it('says when there is no such change', async () => {
    server({ person: BEN });
    openChange('nope');
    expect(await screen.findByRole('heading', { name: 'No such change' })).toBeInTheDocument();
  });
});
