import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '@/lib/paths';
import { Route, Routes, useLocation } from '@/lib/router';
import { render, TEST_SITE } from '@/test/render';
import { CasesPage } from './cases-page';

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

const SITE = {
  ...TEST_SITE,
  forms: { '21': { name: 'Warranty claims', fields: { form_field_21_6: 'Resolution wanted' } } },
};

function showPage(route: string, site = SITE) {
  return render(
    <>
      <Routes>
        <Route path={PATHS.cases} element={<CasesPage />} />
        <Route path={PATHS.case} element={<CasesPage />} />
      </Routes>
      <Location />
    </>,
    { route, site },
  );
}

const claim = (n: number) => ({
  id: String(50000 + n),
  name: 'form_21',
  created_at: 1790000000 - n * 3600,
  properties: { name: `Person ${n}`, email: `person${n}@example.com`, form_field_21_6: n % 2 ? 'Refund' : 'Repair' },
});

/** An answer the platform gave, passed on by our server (which adds the platform's status). */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-platform-status': String(status) } });
const resultsPage = (page: number, total: number) =>
  json(200, {
    results: Array.from({ length: Math.min(50, total - (page - 1) * 50) }, (_, i) => claim((page - 1) * 50 + i)),
    total_entries: total,
    total_pages: Math.ceil(total / 50),
    current_page: page,
    per_page: 50,
  });

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn<Fetch>>;
beforeEach(() => {
  fetchMock = vi.fn<Fetch>();
  vi.stubGlobal('fetch', fetchMock);
  // jsdom lays nothing out: the list's box is given its height in a browser, so that rows are rendered.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(576);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the inbox', { timeout: 20_000 }, () => {
  it('offers the profile’s forms, and lists the picked one newest first through the platform’s list', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(resultsPage(Number(new URL(url, 'http://x').searchParams.get('page')), 120)));
    const user = userEvent.setup({ delay: null });
    showPage('/cases');
    await user.click(await screen.findByRole('combobox', { name: 'Form' }));
    await user.click(await screen.findByRole('option', { name: 'Warranty claims (form 21)' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/cases?form=21');
    expect(await screen.findByText('120 cases, newest first')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/site/v2/forms/21/cases?per_page=50&page=1&sort_type=created_at&sort_order=desc',
      expect.anything(),
    );
    const list = screen.getByRole('list', { name: 'Cases of Warranty claims' });
    const [first] = await within(list).findAllByRole('link');
    // Received, then the default columns: name, e-mail and the form's first text field, by its label.
    expect(first).toHaveTextContent(/Received .*, Name: Person 0, Email: person0@example.com, Resolution wanted: Repair/);
    expect(first).toHaveAttribute('href', '/cases/21/50000?form=21');
    expect(within(list).getAllByRole('listitem')[0]).toHaveAttribute('aria-setsize', '120');

    // One Tab stop; the arrow keys move between rows, End to the last row the list knows of.
    const links = within(list).getAllByRole('link');
    expect(links.filter((link) => link.tabIndex === 0)).toEqual([first]);
    const row = (n: number) => within(list.querySelector<HTMLElement>(`[aria-posinset="${n}"]`) ?? list).getByRole('link');
    first?.focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toBe('/cases/21/50001?form=21&at=1'));
    expect(row(2)).toHaveAttribute('tabindex', '0');
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toBe('/cases/21/50000?form=21'));
  });

  it('says “No cases yet” for the platform’s 404, and for a filter with no match offers to clear it', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(json(404, { error: 'Not Found', message: 'The form does not contain any cases', code: 404 })),
    );
    const { unmount } = showPage('/cases?form=7');
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
    unmount();

    const user = userEvent.setup({ delay: null });
    showPage(`/cases?form=21&from=2026-10-01&to=2026-10-31&where=${encodeURIComponent('{"email":{"contains":"zz"}}')}`);
    expect(await screen.findByText('No cases match these filters')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Filters in use' })).toHaveTextContent('Email contains “zz”');
    const sent = new URL(fetchMock.mock.calls.at(-1)?.[0] ?? '', 'http://x').searchParams.get('filter');
    expect(JSON.parse(sent ?? '{}')).toMatchObject({
      email: { contains: 'zz' },
      created_at: { gt: expect.any(Number), lt: expect.any(Number) },
    });
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/^\/cases\?form=21$/);
  });

  it('shows an answer in an envelope the profile does not describe, with its raw text, and says which envelope it is', async () => {
    const body = { data: [claim(1)], meta: { total: 1, page: 1, per_page: 50 } };
    fetchMock.mockImplementation(() => Promise.resolve(json(200, body)));
    showPage('/cases?form=21');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list of form 21 could not be read');
    expect(alert).toHaveTextContent('It is the "data-meta" envelope: set sites[].lists.envelope to read it.');
    expect(within(alert).getByText('The platform’s answer, as it arrived')).toBeInTheDocument();
    expect(alert).toHaveTextContent('"meta":{"total":1');
  });

  it('adds a field’s condition to the address, which the list sends as the platform’s filter', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(resultsPage(1, 3)));
    const user = userEvent.setup({ delay: null });
    showPage('/cases?form=21');
    await screen.findByText('3 cases, newest first');
    await user.click(await screen.findByRole('combobox', { name: 'Field' }));
    await user.click(await screen.findByRole('option', { name: 'Resolution wanted' }));
    await user.click(screen.getByRole('combobox', { name: 'Match' }));
    await user.click(await screen.findByRole('option', { name: 'is exactly' }));
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'Refund');
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(
      `/cases?form=21&where=${encodeURIComponent('{"form_field_21_6":"Refund"}').replace(/%20/g, '+')}`,
    );
    expect(await screen.findByText('3 cases matching the filters, newest first')).toBeInTheDocument();
    const sent = new URL(fetchMock.mock.calls.at(-1)?.[0] ?? '', 'http://x').searchParams.get('filter');
    expect(sent).toBe('{"form_field_21_6":"Refund"}');
  });
});
