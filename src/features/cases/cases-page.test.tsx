import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PATHS } from '@/lib/paths';
import { Route, Routes, useLocation } from '@/lib/router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { CasesPage } from './cases-page';
import { RECENT_LOOKUPS_KEY } from './recent-lookups';

const CASE = { id: '48217', name: 'form_3', form_name: 'Contact us', created_at: 1761955200, properties: { name: 'Aroha Ngata' } };

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname}</output>;
}

/** The page at `route`; `appRetries` runs it with the app's query client, whose retries are under test. */
function showPage(route = '/cases', { appRetries = false } = {}) {
  return render(
    <>
      <Routes>
        <Route path={PATHS.cases} element={<CasesPage />} />
        <Route path={PATHS.case} element={<CasesPage />} />
      </Routes>
      <Location />
    </>,
    { route, appQueryClient: appRetries },
  );
}

/** Types both identifiers and presses Enter, as a person looks a case up. */
async function lookUp(user: ReturnType<typeof userEvent.setup>, form: string, id: string) {
  await user.type(screen.getByRole('textbox', { name: 'Form identifier' }), form);
  await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), `${id}{Enter}`);
}

/** An answer the platform gave, passed on by our server (which adds the platform's status). */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'x-platform-status': String(status) } });
const errorBody = (code: number, error: string, message: string, details?: unknown[]) => ({ error, message, code, details });

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn<Fetch>>;
/** What our server says of the team's work beside a case shown (its panel's own tests are in case-work-panel.test.tsx): nothing yet. */
function teamWork(url: string): Response {
  const untouched = { status: 'new', assignee: null, notes: 0, seen: true, updatedAt: null, updatedBy: null };
  const body = url.endsWith('/assignees')
    ? { people: [] }
    : url.endsWith('/work')
      ? { since: 0, cases: {} }
      : { work: untouched, notes: [] };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}
beforeEach(() => {
  fetchMock = vi.fn<Fetch>();
  // The platform's calls go to the mock each test sets up; the team's work is answered apart.
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
    url.startsWith('/api/inbox/') ? Promise.resolve(teamWork(url)) : fetchMock(url, init),
  );
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

describe('CasesPage', { timeout: 20_000 }, () => {
  it('looks a case up, makes the address a deep link, focuses the result and remembers it', async () => {
    fetchMock.mockResolvedValue(json(200, CASE));
    const user = userEvent.setup({ delay: null });
    showPage();
    await user.type(screen.getByRole('textbox', { name: 'Form identifier' }), ' 3 ');
    await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), '48217{Enter}');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' });
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/cases/3/48217');
    expect(fetchMock).toHaveBeenCalledWith('/api/site/v2/forms/3/cases/48217', expect.anything());
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Contact us: case 48217' })).toHaveAttribute('href', '/cases/3/48217');
    expect(JSON.parse(localStorage.getItem(RECENT_LOOKUPS_KEY) ?? '[]')).toMatchObject([{ form: '3', id: '48217', title: 'Contact us' }]);

    fetchMock.mockResolvedValue(json(200, { ...CASE, id: '48221' }));
    await user.clear(screen.getByRole('textbox', { name: 'Case identifier' }));
    await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), '48221{Enter}');
    expect(await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48221' })).toBeInTheDocument();
    // One form and one result: the old ones are replaced, not kept beside the new.
    expect(screen.getAllByRole('search')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 2, name: /^Contact us: case/ })).toHaveLength(1);
  });

  it('opens a deep link straight to the case', async () => {
    fetchMock.mockResolvedValue(json(200, CASE));
    showPage('/cases/3/48217');
    expect(await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Form identifier' })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('48217');
  });

  it('says which case is missing on 404, keeps the identifiers and offers no pointless retry', async () => {
    fetchMock.mockResolvedValue(json(404, errorBody(404, 'Not Found', 'Form 3 has no case 99999.')));
    showPage('/cases/3/99999');
    expect(await screen.findByText('No case 99999 in form 3')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('99999');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('moves the focus to a 404 typed in the boxes, naming both identifiers, and keeps both', async () => {
    fetchMock.mockResolvedValue(json(404, errorBody(404, 'Not Found', 'Form 3 has no case 99999.')));
    const user = userEvent.setup({ delay: null });
    showPage();
    await lookUp(user, '3', '99999');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No case 99999 in form 3');
    await waitFor(() => expect(alert).toHaveFocus());
    expect(screen.getByRole('textbox', { name: 'Form identifier' })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('99999');
  });

  it.each([
    [401, 'Unauthorized', 'The server’s platform credentials were refused'],
    [403, 'Forbidden', 'The server’s platform credentials lack permission'],
  ])('calls %i a configuration matter for whoever runs the server', async (status, phrase, title) => {
    fetchMock.mockResolvedValue(json(status, errorBody(status, phrase, 'nope')));
    showPage('/cases/3/48217');
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByText(/configuration matter for whoever runs this server/)).toBeInTheDocument();
  });

  it('lists the details of a 422', async () => {
    fetchMock.mockResolvedValue(
      json(
        422,
        errorBody(422, 'Unprocessable Entity', 'The form or case identifier is not valid.', [{ field: 'id', message: 'is reserved' }]),
      ),
    );
    showPage('/cases/3/48217');
    expect(await screen.findByText('The platform rejected the identifiers')).toBeInTheDocument();
    expect(screen.getByRole('listitem')).toHaveTextContent('id: is reserved');
  });

  it('says a network failure is one, keeps what was typed, and retries', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce(json(200, CASE));
    const user = userEvent.setup({ delay: null });
    showPage('/cases/3/48217');
    expect(await screen.findByText('site-admin’s server could not be reached')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Form identifier' })).toHaveValue('3');
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeInTheDocument();
    expect(screen.queryByText('site-admin’s server could not be reached')).toBeNull();
  });

  it('says so when the answer is not JSON', async () => {
    fetchMock.mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 200 }));
    showPage('/cases/3/48217');
    expect(await screen.findByText('The answer was not a case')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('reads a schema name in the form box as the form’s number, and says so', async () => {
    fetchMock.mockResolvedValue(json(200, CASE));
    const user = userEvent.setup({ delay: null });
    showPage();
    await user.type(screen.getByRole('textbox', { name: 'Form identifier' }), 'form_3');
    await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), '48217{Enter}');
    const heading = await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/site/v2/forms/3/cases/48217', expect.anything());
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/cases/3/48217');
    const formBox = screen.getByRole('textbox', { name: 'Form identifier' });
    expect(formBox).toHaveValue('3');
    expect(formBox).toHaveAccessibleDescription(/^“form_3” read as form 3, its number$/);
    await user.type(formBox, '1');
    expect(formBox).toHaveAccessibleDescription('e.g. 3, or paste a whole case link');
  });

  it('takes the case box as typed: a/b is refused there, with the reason, and nothing is sent', async () => {
    const user = userEvent.setup({ delay: null });
    showPage();
    await user.type(screen.getByRole('textbox', { name: 'Form identifier' }), '3');
    await user.type(screen.getByRole('textbox', { name: 'Case identifier' }), '7/48260{Enter}');
    expect(screen.getByRole('textbox', { name: 'Form identifier' })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('7/48260');
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveAccessibleDescription(
      /not “\/”\. To look up a case by its link, paste the link into the form identifier box\./,
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent(/^\/cases$/);
  });

  it('drops an error once the boxes hold other identifiers, and shows it again for the same ones', async () => {
    fetchMock.mockResolvedValue(json(404, errorBody(404, 'Not Found', 'Form 3 has no case 99999.')));
    const user = userEvent.setup({ delay: null });
    showPage('/cases/3/99999');
    expect(await screen.findByRole('alert')).toHaveTextContent('No case 99999 in form 3');
    const caseBox = screen.getByRole('textbox', { name: 'Case identifier' });
    await user.type(caseBox, '1');
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(caseBox, '{Backspace}');
    expect(screen.getByRole('alert')).toHaveTextContent('No case 99999 in form 3');
    await user.clear(screen.getByRole('textbox', { name: 'Form identifier' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends nothing for a link whose identifiers cannot be identifiers', async () => {
    showPage('/cases/3/a.b');
    expect(await screen.findByText('This link cannot point to a case')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('lists recent lookups, tolerates damaged storage, and clears', async () => {
    localStorage.setItem(
      RECENT_LOOKUPS_KEY,
      JSON.stringify([{ form: '7', id: '48260', title: 'Returns and exchanges', at: 1 }, { form: '<x>', id: 1 }, 'junk']),
    );
    const user = userEvent.setup({ delay: null });
    const page = showPage();
    expect(screen.getByRole('link', { name: 'Returns and exchanges: case 48260' })).toHaveAttribute('href', '/cases/7/48260');
    await user.click(screen.getByRole('button', { name: 'Clear recent lookups' }));
    expect(screen.queryByRole('link', { name: /case 48260/ })).toBeNull();
    expect(localStorage.getItem(RECENT_LOOKUPS_KEY)).toBeNull();
    expect(screen.getByText('Cases you open are listed here, in this browser only.')).toBeInTheDocument();
    // Cleared for the next visit too.
    page.unmount();
    showPage();
    expect(screen.getByRole('region', { name: 'Recent lookups' })).toHaveTextContent(
      'Cases you open are listed here, in this browser only.',
    );
    expect(screen.queryByRole('link', { name: /case 48260/ })).toBeNull();
  });

  it('lists the newest lookup first, kept from an earlier visit, and opens its case', async () => {
    fetchMock.mockImplementation((url) =>
      Promise.resolve(
        url.endsWith('/forms/3/cases/48217')
          ? json(200, CASE)
          : json(200, { ...CASE, id: '48260', name: 'form_7', form_name: 'Returns and exchanges' }),
      ),
    );
    const user = userEvent.setup({ delay: null });
    const first = showPage();
    await lookUp(user, '3', '48217');
    await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' });
    await user.clear(screen.getByRole('textbox', { name: 'Form identifier' }));
    await user.clear(screen.getByRole('textbox', { name: 'Case identifier' }));
    await lookUp(user, '7', '48260');
    await screen.findByRole('heading', { level: 2, name: 'Returns and exchanges: case 48260' });
    // A later visit, in the same browser: what was stored is all that carries over.
    first.unmount();
    showPage();
    const recent = screen.getByRole('region', { name: 'Recent lookups' });
    expect(
      within(recent)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Returns and exchanges: case 48260', 'Contact us: case 48217']);
    await user.click(within(recent).getByRole('link', { name: 'Contact us: case 48217' }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/cases/3/48217');
    expect(await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeInTheDocument();
  });

  it('opens even when stored lookups are not JSON at all', () => {
    localStorage.setItem(RECENT_LOOKUPS_KEY, '{not json');
    showPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Cases' })).toBeInTheDocument();
  });
});

/** What our server answers: its own status, with the platform's beside it when the platform answered. */
const served = (status: number, body: unknown, platformStatus?: number) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...(platformStatus ? { 'x-platform-status': String(platformStatus) } : {}) },
  });
const badGateway = (message: string) => ({ error: 'Bad Gateway', message, code: 502 });

describe('CasesPage, with the app’s retries', { timeout: 20_000 }, () => {
  it('says a network failure is one after asking once more by itself, keeps what was typed, and retries on request', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const user = userEvent.setup({ delay: null });
    showPage('/cases', { appRetries: true });
    await lookUp(user, '3', '48217');
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('site-admin’s server could not be reached');
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByRole('textbox', { name: 'Form identifier' })).toHaveValue('3');
    expect(screen.getByRole('textbox', { name: 'Case identifier' })).toHaveValue('48217');
    fetchMock.mockResolvedValue(json(200, CASE));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    [
      'an answer that is not JSON',
      () => new Response('<h1>Login</h1>', { status: 200, headers: { 'content-type': 'text/html' } }),
      'The answer was not a case',
      true,
    ],
    [
      'the platform’s 500 in HTML',
      () => served(502, badGateway('The platform answered 500 with something that is not JSON.'), 500),
      'The platform had a problem (500 Internal Server Error)',
      true,
    ],
    [
      'the platform’s 200 in HTML',
      () => served(502, badGateway('The platform answered 200 with something that is not JSON.'), 200),
      'The answer was not a case',
      true,
    ],
    [
      'a platform that cannot be reached',
      () => served(502, badGateway('The platform could not be reached.')),
      'The platform could not be reached',
      true,
    ],
    [
      'refused platform credentials',
      () => served(401, { error: 'Unauthorized', message: 'The API key is not valid.', code: 401 }, 401),
      'configuration matter for whoever runs this server',
      false,
    ],
  ])('explains %s, and asks only once', async (what, answer, message, canRetry) => {
    fetchMock.mockImplementation(() => Promise.resolve(answer()));
    showPage('/cases/3/48217', { appRetries: true });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    if (what !== 'a platform that cannot be reached') expect(alert).not.toHaveTextContent('could not be reached');
    expect(screen.queryAllByRole('button', { name: 'Try again' })).toHaveLength(canRetry ? 1 : 0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows our 504 at once, not asked again by itself, and asks once more on Try again', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(served(504, { error: 'Gateway Timeout', message: 'The platform did not answer within 15 seconds.', code: 504 })),
    );
    const user = userEvent.setup({ delay: null });
    showPage('/cases/3/48217', { appRetries: true });
    expect(await screen.findByRole('alert')).toHaveTextContent('The platform did not answer in time');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(await screen.findByRole('alert')).toHaveTextContent('The platform did not answer in time');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
