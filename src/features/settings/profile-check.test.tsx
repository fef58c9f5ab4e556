import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { ProfileCheck } from './profile-check';

const paste = (text: string) =>
  fireEvent.change(screen.getByRole('textbox', { name: /Site profile \(JSON\)/ }), { target: { value: text } });

/** What the page sent: each request's path and body, read as JSON. */
let sent: { path: string; body: unknown }[];

beforeEach(() => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      sent.push({ path: String(input), body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      // The list of a form: one case in the default envelope, as the sandbox answers it.
      if (String(input).includes('/cases?')) {
        const results = '{"results":[{"id":"1","properties":{}}],"total_entries":1,"total_pages":1,"current_page":1,"per_page":1}';
        return Promise.resolve(new Response(results, { status: 200, headers: { 'x-platform-status': '200' } }));
      }
      return Promise.resolve(new Response(null, { status: 204 }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('ProfileCheck', { timeout: 20_000 }, () => {
  it('names every problem by its JSON path, as the server would refuse to start', async () => {
    const user = userEvent.setup();
    render(<ProfileCheck />);
    expect(screen.getByRole('button', { name: 'Check profile' })).toBeDisabled();
    paste(JSON.stringify({ sites: [{ id: 'Bad Id', name: 'X', platform: { sandbox: true, siteId: '1' }, money: { decimals: 3 } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('2 problems: the server would refuse to start');
    expect(alert).toHaveTextContent('sites[0].id: must be lower-case letters and digits joined by hyphens');
    expect(alert).toHaveTextContent('sites[0].money.decimals: must be one of 2, 4');
    // The record hears the outcome, the count and the site ids: nothing else of the profile.
    await waitFor(() =>
      expect(sent).toEqual([{ path: '/api/activity/profile-checks', body: { outcome: 'problems', problems: 2, sites: ['Bad Id'] } }]),
    );
  });

  it('says a valid profile is valid, with its sites', async () => {
    const user = userEvent.setup();
    render(<ProfileCheck />);
    paste(JSON.stringify({ sites: [{ id: 'harbour-linen', name: 'Harbour Linen', platform: { sandbox: true, siteId: '1001' } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 site: Harbour Linen (harbour-linen)');
    await waitFor(() =>
      expect(sent).toEqual([{ path: '/api/activity/profile-checks', body: { outcome: 'ok', problems: 0, sites: ['harbour-linen'] } }]),
    );
    expect(JSON.stringify(sent)).not.toContain('Harbour Linen');
    expect(JSON.stringify(sent)).not.toContain('1001');
  });

  it('says so when the check cannot be recorded, and still shows its outcome', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const user = userEvent.setup();
    render(<ProfileCheck />);
    paste(JSON.stringify({ sites: [{ id: 'harbour-linen', name: 'Harbour Linen', platform: { sandbox: true, siteId: '1001' } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The profile is valid');
    expect(await screen.findByText(/This check could not be written to the activity record/)).toBeInTheDocument();
  });

  it('tries the list envelopes of a valid profile on this server, afresh for each check', async () => {
    const user = userEvent.setup();
    render(<ProfileCheck />);
    paste(JSON.stringify({ sites: [{ id: 'main', name: 'Sandbox', platform: { sandbox: true, siteId: '1001' }, forms: { '21': {} } }] }));
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    await user.click(await screen.findByRole('button', { name: 'Try the list envelopes' }));
    expect(await screen.findByText(/Form 21 answers the “results” envelope/)).toBeVisible();
    expect(sent.map((request) => request.path)).toContain('/api/s/main/site/v2/forms/21/cases?per_page=1');
    // Checked again: what was tried before is gone until it is tried again.
    await user.click(screen.getByRole('button', { name: 'Check profile' }));
    await waitFor(() => expect(screen.queryByText(/Form 21 answers/)).toBeNull());
    expect(screen.getByRole('button', { name: 'Try the list envelopes' })).toBeEnabled();
  });
});
