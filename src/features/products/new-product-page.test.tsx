/**
 * The new-product page where the site's rule covers creates, against our server stood in through fetch:
 * Create reads "Ask for approval" and asks with exactly the body Review shows, nothing is created, and the
 * page points to the change; the button never guesses the rule; and its author's edit of a pending change
 * opens its stored body and asks again, as a new version of it.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EditedChange, NewChange } from '@/contract/approvals';
import { PATHS, pathTo } from '@/lib/paths';
import { Route, Routes, useNavigate } from '@/lib/router';
import { changeFor, ruleOn } from '@/test/changes';
import { render } from '@/test/render';
import { NewProductPage } from './new-product-page';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Our server: the site's rules, the changes asked for and edited, and every create that reached it. */
function server({ rules = [] as unknown[] | null, stored = null as NewChange | null, refuse = false } = {}) {
  const state = { asked: [] as NewChange[], edited: [] as EditedChange[], creates: [] as string[], rules };
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    if (url === '/api/approval-rules') return state.rules === null ? new Promise<Response>(() => undefined) : json(200, state.rules);
    if (refuse && url.endsWith('/ecommerce/products/create')) {
      // The owner turned the rule on after this page read it: our server refuses the create, sending nothing.
      // It answers as a network does, after the page has shown the create under way.
      await new Promise((resolve) => setTimeout(resolve, 30));
      state.rules = [ruleOn('main', ['create'])];
      return json(403, {
        error: 'Forbidden',
        code: 403,
        message: 'Writes of create to Sandbox need a second person’s approval. Ask for approval instead. Nothing was sent.',
        details: [{ field: 'x-approved-change', message: 'is required on this site' }],
      });
    }
    if (url === '/api/changes' && init.method === 'POST') {
      const asked = JSON.parse(String(init.body)) as NewChange;
      state.asked.push(asked);
      return json(201, changeFor(asked, 'ch-1'));
    }
    if (url === '/api/changes/ch-1' && stored && init.method === 'PUT') {
      const edit = JSON.parse(String(init.body)) as EditedChange;
      state.edited.push(edit);
      return json(200, changeFor({ ...stored, body: edit.body ?? '' } as NewChange, 'ch-1', { version: 2 }));
    }
    if (url === '/api/changes/ch-1' && stored) return json(200, changeFor(stored, 'ch-1'));
    if (url.endsWith('/ecommerce/products/create')) {
      state.creates.push(String(init.body));
      return json(200, { id: '1' });
    }
    return json(404, { error: 'Not Found', code: 404, message: `no ${url}` });
  });
  return state;
}

/** Opens the page as the change's page does: with the change and its version in the history entry. */
function FromChangePage() {
  const navigate = useNavigate();
  useEffect(() => navigate(pathTo('newProduct'), { state: { change: 'ch-1', version: 1 } }), [navigate]);
  return null;
}

function open(route = '/products/new') {
  return render(
    <Routes>
      <Route path={PATHS.newProduct} element={<NewProductPage />} />
      <Route path={PATHS.approval} element={<p>The change’s page</p>} />
      <Route path="*" element={<FromChangePage />} />
    </Routes>,
    { route },
  );
}

async function toReview(user: UserEvent, name: string) {
  await user.type(await screen.findByRole('textbox', { name: /^Name/ }), name);
  for (const step of ['Placement and details', 'Pricing and inventory', 'Attributes and options', 'Review']) {
    await user.click(await screen.findByRole('button', { name: `Next: ${step}` }));
  }
  await screen.findByRole('heading', { name: 'JSON to send' });
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('a new product where creates need approval', { timeout: 60_000 }, () => {
  it('asks for approval with the exact text Review shows; nothing is created, and the page links to the change', async () => {
    const user = userEvent.setup();
    const state = server({ rules: [ruleOn('main', ['create'])] });
    open();
    await toReview(user, 'Blue mug');
    const shown = screen.getByRole('region', { name: 'The exact request body' }).textContent;
    expect(await screen.findByText(/then press Ask for approval\./)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Ask for approval' }));
    expect(await screen.findByText('Waiting for approval')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the change' })).toHaveAttribute('href', '/approvals/ch-1');
    expect(state.asked).toEqual([{ site: 'main', kind: 'create', body: shown }]);
    expect(JSON.parse(shown ?? '{}')).toMatchObject({ name: 'Blue mug', slug: 'blue-mug' });
    expect(state.creates).toEqual([]);
  });

  it('creates as before where the rule does not cover creates', async () => {
    const user = userEvent.setup();
    const state = server({ rules: [ruleOn('main', ['update'])] });
    open();
    await toReview(user, 'Blue mug');
    await user.click(await screen.findByRole('button', { name: 'Create product' }));
    await waitFor(() => expect(state.creates).toHaveLength(1));
    expect(state.asked).toEqual([]);
  });

  it('a create refused for want of approval (the rule changed since it was read) reads the rule again and offers to ask', async () => {
    const user = userEvent.setup();
    const state = server({ rules: [], refuse: true });
    open();
    await toReview(user, 'Blue mug');
    await user.click(await screen.findByRole('button', { name: 'Create product' }));
    expect(await screen.findByText(/need a second person’s approval/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Ask for approval' }));
    await waitFor(() => expect(state.asked).toHaveLength(1));
    expect(state.creates).toEqual([]);
  });

  it('opens the editor at once, and Create waits (disabled) while the rule is read', async () => {
    const user = userEvent.setup();
    server({ rules: null });
    open();
    await toReview(user, 'Blue mug');
    expect(screen.getByRole('button', { name: 'Checking whether approval is needed…' })).toBeDisabled();
  });

  it('its author edits a pending change: the stored body opens on Review, and asking again makes a new version from it', async () => {
    const user = userEvent.setup();
    const body = JSON.stringify({ name: 'Blue mug', slug: 'blue-mug', enabled: 'true' }, null, 2);
    const state = server({ rules: [ruleOn('main', ['create'])], stored: { site: 'main', kind: 'create', body } });
    open('/start');
    // It opens on Review, showing the stored body exactly.
    expect(await screen.findByRole('region', { name: 'The exact request body' })).toHaveTextContent(body, { normalizeWhitespace: false });
    await user.click(screen.getByRole('button', { name: 'Edit Basics' }));
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Blue mug');
    await user.type(name, ', large');
    for (const step of ['Placement and details', 'Pricing and inventory', 'Attributes and options', 'Review']) {
      await user.click(await screen.findByRole('button', { name: `Next: ${step}` }));
    }
    const shown = screen.getByRole('region', { name: 'The exact request body' }).textContent;
    await user.click(screen.getByRole('button', { name: 'Ask again (new version)' }));
    expect(await screen.findByText('The change’s page')).toBeInTheDocument();
    expect(state.edited).toEqual([{ version: 1, body: shown }]);
    expect(JSON.parse(shown ?? '{}')).toMatchObject({ name: 'Blue mug, large' });
    expect(state.creates).toEqual([]);
  });
});
