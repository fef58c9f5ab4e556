import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_PATHS, passkeyPath, type PasskeySummary } from '@/contract/access';
import { render } from '@/test/render';
import { PasskeysSection } from './passkeys-section';

const LAPTOP: PasskeySummary = { id: 'cred-1', name: 'Laptop', createdAt: Date.UTC(2026, 10, 1, 9), lastUsedAt: null };
const PHONE: PasskeySummary = { id: 'cred-2', name: 'Phone', createdAt: Date.UTC(2026, 10, 2, 9), lastUsedAt: Date.UTC(2026, 10, 3, 9) };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const done = () => new Response(null, { status: 204 });

let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
let kept: PasskeySummary[];

/** Our server's passkey endpoints, over the list `kept`. */
function server(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const path = String(input);
  const method = init?.method ?? 'GET';
  if (path === ACCESS_PATHS.passkeys && method === 'GET') return Promise.resolve(json(200, { passkeys: kept }));
  if (path === ACCESS_PATHS.passkeyOptions) {
    return Promise.resolve(
      json(200, {
        challenge: 'Y2hhbGxlbmdl',
        rp: { id: 'localhost', name: 'site-admin' },
        user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada' },
        pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
      }),
    );
  }
  if (path === passkeyPath(LAPTOP.id) && method === 'DELETE') {
    kept = kept.filter((p) => p.id !== LAPTOP.id);
    return Promise.resolve(done());
  }
  if (path === passkeyPath(LAPTOP.id) && method === 'PATCH') {
    const { name } = JSON.parse(String(init?.body)) as { name: string };
    kept = kept.map((p) => (p.id === LAPTOP.id ? { ...p, name } : p));
    return Promise.resolve(done());
  }
  return Promise.resolve(json(404, { code: 404, error: 'Not Found', message: `${method} ${path}` }));
}

beforeEach(() => {
  kept = [LAPTOP, PHONE];
  fetchMock = vi.fn<typeof fetch>(server);
  vi.stubGlobal('fetch', fetchMock);
  // A browser with passkeys whose person closes the prompt.
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  Object.defineProperty(window.navigator, 'credentials', {
    configurable: true,
    value: { create: () => Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')) },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(window.navigator, 'credentials');
});

describe('PasskeysSection', { timeout: 20_000 }, () => {
  it('lists the person’s passkeys with when each was added and last used', async () => {
    render(<PasskeysSection />);
    const table = await screen.findByRole('table', { name: 'Your passkeys' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toHaveTextContent('Laptop');
    expect(rows[1]).toHaveTextContent('Never');
    expect(rows[2]).toHaveTextContent('Phone');
    expect(within(rows[2] as HTMLElement).getAllByRole('time')).toHaveLength(2);
  });

  it('says plainly when the person closes the browser’s prompt, adds nothing, and the message can be dismissed', async () => {
    const user = userEvent.setup({ delay: null });
    render(<PasskeysSection />);
    await screen.findByRole('table', { name: 'Your passkeys' });
    expect(screen.getByRole('button', { name: 'Add a passkey' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Name of the new passkey/ }), 'Tablet');
    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was used: the browser’s prompt was closed or timed out.');
    expect(fetchMock.mock.calls.some(([path, init]) => path === ACCESS_PATHS.passkeys && init?.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('renames a passkey, and removes one only once confirmed', async () => {
    const user = userEvent.setup({ delay: null });
    render(<PasskeysSection />);
    await screen.findByRole('table', { name: 'Your passkeys' });
    await user.click(screen.getByRole('button', { name: 'Rename Laptop' }));
    const field = screen.getByRole('textbox', { name: /New name for Laptop/ });
    await user.clear(field);
    await user.type(field, 'Work laptop{Enter}');
    expect(await screen.findByText('Work laptop')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    expect(screen.getByText('It will no longer sign you in.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Remove Work laptop' }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(screen.queryByText('Work laptop')).not.toBeInTheDocument();
  });
});
