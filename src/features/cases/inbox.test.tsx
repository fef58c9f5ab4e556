import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '@/contract/access';
import type { CaseWork, WorkAnswer } from '@/contract/case-work';
import { PATHS } from '@/lib/paths';
import { Route, Routes, useLocation } from '@/lib/router';
import { render, TEST_SITE } from '@/test/render';
import { CasesPage } from './cases-page';
import { InboxPage } from './inbox';

// The rows are put on screen in a transition, after the answer's own render: on a busy machine that can take
// longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

const SITE = {
  ...TEST_SITE,
  forms: { '21': { name: 'Warranty claims', fields: { form_field_21_6: 'Resolution wanted' } } },
};
const ME: Me = { kind: 'person', id: 'p-ann', email: 'ann@example.com', displayName: 'Ann', grants: [], managesPeople: false };

function showPage(route: string, site: typeof TEST_SITE = SITE) {
  return render(
    <>
      <Routes>
        <Route path={PATHS.cases} element={<CasesPage />} />
        <Route path={PATHS.inbox} element={<InboxPage />} />
        <Route path={PATHS.case} element={<CasesPage />} />
      </Routes>
      <Location />
    </>,
    { route, site, me: ME },
  );
}

const RECEIVED = 1790000000;
const claim = (n: number) => ({
  id: String(50000 + n),
  name: 'form_21',
  created_at: RECEIVED - n * 3600,
  properties: { name: `Person ${n}`, email: `person${n}@example.com`, form_field_21_6: n % 2 ? 'Refund' : 'Repair' },
});

/** An answer the platform gave, passed on by our server (which adds the platform's status). */
const json = (status: number, body: unknown, platform = true) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...(platform ? { 'x-platform-status': String(status) } : {}) },
  });
const resultsPage = (page: number, total: number) =>
  json(200, {
    results: Array.from({ length: Math.max(0, Math.min(500, total - (page - 1) * 500)) }, (_, i) => claim((page - 1) * 500 + i)),
    total_entries: total,
    total_pages: Math.ceil(total / 500),
    current_page: page,
    per_page: 500,
  });

/** The team's work as our server keeps it, for these tests: by case id; a case nobody touched is new and unseen. */
let work: Map<string, Partial<CaseWork>>;
/** "New" begins five hours before the newest case: cases 0 to 5 are new unless seen. */
const SINCE = (RECEIVED - 5 * 3600) * 1000;
const workOf = (id: string): CaseWork => ({
  status: 'new',
  assignee: null,
  notes: 0,
  seen: false,
  updatedAt: null,
  updatedBy: null,
  ...work.get(id),
});
const workAnswer = (ids: readonly string[]): WorkAnswer => ({ since: SINCE, cases: Object.fromEntries(ids.map((id) => [id, workOf(id)])) });

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn<Fetch>>;
/** Answers a PATCH of work; by default as our server would, applying it. */
let onChange: (body: { cases: string[]; status?: string; assignee?: string | null; seen?: boolean }) => Response;

function answerAs(total: number): Fetch {
  return (url, init) => {
    const address = new URL(url, 'http://x');
    if (address.pathname === '/api/site/v2/forms/21/cases')
      return Promise.resolve(resultsPage(Number(address.searchParams.get('page')), total));
    if (address.pathname === '/api/inbox/main/21/work' && init?.method === 'PATCH') {
      return Promise.resolve(onChange(JSON.parse(String(init.body)) as Parameters<typeof onChange>[0]));
    }
    if (address.pathname === '/api/inbox/main/21/work') {
      return Promise.resolve(json(200, workAnswer((address.searchParams.get('cases') ?? '').split(',')), false));
    }
    if (address.pathname === '/api/inbox/main/assignees') {
      return Promise.resolve(
        json(
          200,
          {
            people: [
              { id: 'p-ann', name: 'Ann' },
              { id: 'p-bo', name: 'Bo' },
            ],
          },
          false,
        ),
      );
    }
    return Promise.resolve(json(404, { error: 'Not Found', message: 'No such address', code: 404 }, false));
  };
}

beforeEach(() => {
  work = new Map();
  onChange = (body) => {
    for (const id of body.cases) {
      const before = work.get(id) ?? {};
      work.set(id, {
        ...before,
        ...(body.status ? { status: body.status as CaseWork['status'] } : {}),
        ...(body.seen !== undefined ? { seen: body.seen } : {}),
        ...(body.assignee !== undefined
          ? { assignee: body.assignee ? { id: body.assignee, name: body.assignee === 'p-bo' ? 'Bo' : 'Ann' } : null }
          : {}),
      });
    }
    return json(200, workAnswer(body.cases), false);
  };
  fetchMock = vi.fn<Fetch>();
  vi.stubGlobal('fetch', fetchMock);
  // jsdom lays nothing out: the list's box is given its height in a browser, so that rows are rendered.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(576);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  // Nor does it measure a row: each is given a row's height, so the list does not collapse them all to the top.
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(44);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listOf = () => screen.getByRole('list', { name: 'Cases of Warranty claims' });
function rowOf(n: number): HTMLElement {
  const row = listOf().querySelector<HTMLElement>(`[aria-posinset="${n}"]`);
  if (!row) throw new Error(`No row ${n} on screen`);
  return row;
}
const requestsTo = (path: string, method = 'GET') =>
  fetchMock.mock.calls.filter(([url, init]) => new URL(url, 'http://x').pathname === path && (init?.method ?? 'GET') === method);

describe('the inbox', { timeout: 20_000 }, () => {
  it('is reached from Cases by the profile’s forms, and lists the form newest first with the team’s columns', async () => {
    fetchMock.mockImplementation(answerAs(120));
    work.set('50001', { status: 'open', assignee: { id: 'p-bo', name: 'Bo' } });
    work.set('50002', { seen: true });
    const user = userEvent.setup({ delay: null });
    showPage('/cases');
    await user.click(await screen.findByRole('link', { name: 'Warranty claims' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/^\/cases\/21$/);
    expect(await screen.findByText('120 cases, newest first', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(requestsTo('/api/site/v2/forms/21/cases').map(([url]) => url)).toEqual([
      '/api/site/v2/forms/21/cases?per_page=500&page=1&sort_type=created_at&sort_order=desc',
    ]);
    const first = await waitFor(() => within(rowOf(1)).getByRole('link'));
    // Received (and new to the person), the default columns by label, then status and assignee.
    await waitFor(() =>
      expect(first).toHaveTextContent(
        /Received .*, New to you, Name: Person 0, Email: person0@example.com, Resolution wanted: Repair, Status: New, Assignee: Nobody/,
      ),
    );
    expect(first).toHaveAttribute('href', '/cases/21/50000?form=21');
    expect(within(rowOf(2)).getByRole('link')).toHaveTextContent(/Status: Open, Assignee: Bo$/);
    // Seen: not new any more; older than the person's "new": never new.
    expect(within(rowOf(3)).getByRole('link')).not.toHaveTextContent('New to you');
    expect(within(rowOf(4)).getByRole('link')).toHaveTextContent('New to you');
    expect(within(rowOf(8)).getByRole('link')).not.toHaveTextContent('New to you');
    // One request for the team's work on the page read, naming its cases.
    const workAsked = requestsTo('/api/inbox/main/21/work');
    expect(workAsked).toHaveLength(1);
    expect(new URL(workAsked[0]?.[0] ?? '', 'http://x').searchParams.get('cases')?.split(',')).toHaveLength(120);
  });

  it('moves between rows with the arrow keys, one Tab stop, and selects with Space, a click and Shift+click', async () => {
    fetchMock.mockImplementation(answerAs(120));
    const user = userEvent.setup({ delay: null });
    showPage('/cases/21');
    await screen.findByText('120 cases, newest first', {}, { timeout: 5000 });
    const first = await waitFor(() => within(rowOf(1)).getByRole('link'));
    expect(
      within(listOf())
        .getAllByRole('link')
        .filter((link) => link.tabIndex === 0),
    ).toEqual([first]);
    first.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toBe('/cases/21/50001?form=21&at=1'));
    await user.keyboard(' ');
    expect(within(rowOf(2)).getByRole('checkbox', { name: 'Select case 50001' })).toBeChecked();
    const bar = screen.getByRole('group', { name: 'Work on the selected cases' });
    expect(bar).toHaveTextContent('1 selected');
    // Shift+click: every row from the last one ticked.
    await user.keyboard('{Shift>}');
    await user.click(within(rowOf(5)).getByRole('checkbox'));
    await user.keyboard('{/Shift}');
    expect(bar).toHaveTextContent('4 selected');
    for (const n of [2, 3, 4, 5]) expect(within(rowOf(n)).getByRole('checkbox')).toBeChecked();
    expect(within(rowOf(1)).getByRole('checkbox')).not.toBeChecked();
    // The header's box: every case read, then none.
    const all = screen.getByRole('checkbox', { name: 'Select all 120 cases read' });
    expect(all).toHaveProperty('indeterminate', true);
    await user.click(all);
    expect(bar).toHaveTextContent('120 selected');
    await user.click(all);
    expect(bar).toHaveTextContent('None selected');
  });

  it('sets a status in bulk at once, in one request; a refusal puts the rows back and says why', async () => {
    fetchMock.mockImplementation(answerAs(120));
    const user = userEvent.setup({ delay: null });
    showPage('/cases/21');
    await waitFor(() => expect(within(rowOf(1)).getByRole('link')).toHaveTextContent('Status: New'), { timeout: 5000 });
    await user.click(within(rowOf(1)).getByRole('checkbox'));
    await user.click(within(rowOf(2)).getByRole('checkbox'));
    await user.click(screen.getByRole('combobox', { name: 'Set status' }));
    await user.click(await screen.findByRole('option', { name: 'Done' }));
    expect(await screen.findByText('Set 2 cases to Done.')).toBeInTheDocument();
    // The rows follow in the next render (they are put on screen in a transition).
    await waitFor(() => expect(within(rowOf(1)).getByRole('link')).toHaveTextContent('Status: Done'));
    expect(within(rowOf(2)).getByRole('link')).toHaveTextContent('Status: Done');
    const patches = requestsTo('/api/inbox/main/21/work', 'PATCH');
    expect(patches).toHaveLength(1);
    expect(JSON.parse(String(patches[0]?.[1]?.body))).toEqual({ status: 'done', cases: ['50000', '50001'] });

    // Assign: the people who may be assigned, then one request; a refusal puts the assignee back.
    let release: (response: Response) => void = () => undefined;
    onChange = () => json(403, { error: 'Forbidden', message: 'You may not change the work on this site.', code: 403 }, false);
    const held = new Promise<Response>((resolve) => (release = resolve));
    const answer = answerAs(120);
    fetchMock.mockImplementation((url, init) => (init?.method === 'PATCH' ? held : answer(url, init)));
    await user.click(screen.getByRole('combobox', { name: 'Assign to' }));
    await user.click(await screen.findByRole('option', { name: 'Bo' }));
    // Shown before the server answers...
    await waitFor(() => expect(within(rowOf(1)).getByRole('link')).toHaveTextContent('Assignee: Bo'));
    release(onChange({ cases: [] }));
    // ...and put back when it refuses.
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was changed: You may not change the work on this site.');
    await waitFor(() => expect(within(rowOf(1)).getByRole('link')).toHaveTextContent('Assignee: Nobody'));
    expect(within(rowOf(1)).getByRole('link')).toHaveTextContent('Status: Done');
  });

  it('applies the team’s filters to the pages read, says how many they hide, and reads further pages on request', async () => {
    fetchMock.mockImplementation(answerAs(700));
    for (let n = 0; n < 700; n += 1) if (n % 4 === 0) work.set(String(50000 + n), { status: 'done' });
    const user = userEvent.setup({ delay: null });
    showPage('/cases/21');
    await screen.findByText('700 cases, newest first');
    await user.click(screen.getByRole('checkbox', { name: 'Not done' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/^\/cases\/21\?team=open$/);
    expect(
      await screen.findByText(/375 cases shown, newest first: of the 500 cases read, 125 hidden by Not done\. The platform has more\./),
    ).toBeInTheDocument();
    expect(within(rowOf(1)).getByRole('link')).toHaveAttribute('href', '/cases/21/50001?form=21&team=open');
    await user.click(screen.getByRole('button', { name: 'Read the next 500 cases' }));
    expect(await screen.findByText(/525 cases shown, newest first: of the 700 cases read, 175 hidden by Not done\.$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Read the next/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/team=open&read=2/);
  });

  it('offers the export with the list’s filters only to whoever may export', async () => {
    fetchMock.mockImplementation(answerAs(3));
    const user = userEvent.setup({ delay: null });
    const { unmount } = showPage(`/cases/21?team=mine&where=${encodeURIComponent('{"email":{"contains":"a"}}')}`, {
      ...SITE,
      can: ['lookup', 'export'],
    });
    await user.click(await screen.findByRole('button', { name: 'Export' }));
    const csv = await screen.findByRole('menuitem', { name: 'Export CSV' });
    const href = new URL(csv.getAttribute('href') ?? '', 'http://x');
    expect(href.pathname).toBe('/api/inbox/main/21/export');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      format: 'csv',
      sort_type: 'created_at',
      sort_order: 'desc',
      filter: '{"email":{"contains":"a"}}',
      team: 'mine',
    });
    expect(screen.getByRole('menuitem', { name: 'Export .xlsx' })).toHaveAttribute('href', expect.stringContaining('format=xlsx'));
    unmount();
    showPage('/cases/21', { ...SITE, can: ['lookup'] });
    await screen.findByText('3 cases, newest first');
    expect(screen.queryByRole('button', { name: 'Export' })).not.toBeInTheDocument();
  });

  it('says “No cases yet” for the platform’s 404, and for a filter with no match offers to clear it', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(json(404, { error: 'Not Found', message: 'The form does not contain any cases', code: 404 })),
    );
    const { unmount } = showPage('/cases/7');
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    unmount();

    const user = userEvent.setup({ delay: null });
    showPage(`/cases/21?from=2026-10-01&to=2026-10-31&where=${encodeURIComponent('{"email":{"contains":"zz"}}')}`);
    expect(await screen.findByText('No cases match these filters')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Filters in use' })).toHaveTextContent('Email contains “zz”');
    const sent = new URL(fetchMock.mock.calls.at(-1)?.[0] ?? '', 'http://x').searchParams.get('filter');
    expect(JSON.parse(sent ?? '{}')).toMatchObject({
      email: { contains: 'zz' },
      created_at: { gt: expect.any(Number), lt: expect.any(Number) },
    });
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/^\/cases\/21$/);
  });

  it('shows an answer in an envelope the profile does not describe, with its raw text, and says which envelope it is', async () => {
    const body = { data: [claim(1)], meta: { total: 1, page: 1, per_page: 500 } };
    fetchMock.mockImplementation(() => Promise.resolve(json(200, body)));
    showPage('/cases/21');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list of form 21 could not be read');
    expect(alert).toHaveTextContent('It is the "data-meta" envelope: set sites[].lists.envelope to read it.');
    expect(within(alert).getByText('The platform’s answer, as it arrived')).toBeInTheDocument();
    expect(alert).toHaveTextContent('"meta":{"total":1');
  });

  it('adds a field’s condition to the address, which the list sends as the platform’s filter', async () => {
    fetchMock.mockImplementation(answerAs(3));
    const user = userEvent.setup({ delay: null });
    showPage('/cases/21');
    await screen.findByText('3 cases, newest first');
    await user.click(await screen.findByRole('combobox', { name: 'Field' }));
    await user.click(await screen.findByRole('option', { name: 'Resolution wanted' }));
    await user.click(screen.getByRole('combobox', { name: 'Match' }));
    await user.click(await screen.findByRole('option', { name: 'is exactly' }));
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'Refund');
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(
      `/cases/21?where=${encodeURIComponent('{"form_field_21_6":"Refund"}').replace(/%20/g, '+')}`,
    );
    expect(await screen.findByText('3 cases matching the filters, newest first')).toBeInTheDocument();
    const sent = new URL(requestsTo('/api/site/v2/forms/21/cases').at(-1)?.[0] ?? '', 'http://x').searchParams.get('filter');
    expect(sent).toBe('{"form_field_21_6":"Refund"}');
  });
});
