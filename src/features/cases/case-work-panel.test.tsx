/**
 * The work panel against a small stand-in of our server's work endpoints (the endpoints themselves are
 * tested on both engines in server/inbox/case-work.test.ts, and end to end in e2e/case-work.spec.ts): what it
 * sends and shows, that opening marks the case seen, and that a note's text survives a failed save.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Me } from '@/contract/access';
import type { CaseWork, Note } from '@/contract/case-work';
import { render } from '@/test/render';
import { CaseWorkPanel } from './case-work-panel';

const ME: Me = { kind: 'person', id: 'p-ana', email: 'ana@example.com', displayName: 'Ana Ruiz', grants: [], managesPeople: false };
const answer = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server's side of one case: its work and notes, and every request the panel made. */
function standIn() {
  const work: CaseWork = { status: 'new', assignee: null, notes: 0, seen: false, updatedAt: null, updatedBy: null };
  const notes: Note[] = [
    {
      id: 'n-ben',
      text: 'Called the customer',
      author: { id: 'p-ben', name: 'Ben Okafor' },
      createdAt: 1_764_000_000_000,
      updatedAt: 1_764_000_000_000,
      versions: [],
    },
  ];
  work.notes = notes.length;
  const sent: { method: string; url: string; body: unknown }[] = [];
  let failNext: number | null = null;
  const fetch = (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    sent.push({ method, url, body });
    if (failNext !== null && method !== 'GET') {
      const status = failNext;
      failNext = null;
      return Promise.resolve(answer(status, { error: 'Service Unavailable', code: status, message: 'The database is busy.' }));
    }
    if (url.endsWith('/assignees'))
      return Promise.resolve(
        answer(200, {
          people: [
            { id: 'p-ana', name: 'Ana Ruiz' },
            { id: 'p-ben', name: 'Ben Okafor' },
          ],
        }),
      );
    if (method === 'GET') return Promise.resolve(answer(200, { work, notes }));
    if (method === 'PATCH') {
      if (body?.status) work.status = body.status as CaseWork['status'];
      if (body?.assignee !== undefined) work.assignee = body.assignee === null ? null : { id: String(body.assignee), name: 'Ben Okafor' };
      if (body?.seen !== undefined) work.seen = Boolean(body.seen);
      return Promise.resolve(answer(200, { since: 0, cases: { '48217': work } }));
    }
    if (method === 'POST') {
      const note: Note = {
        id: `n-${notes.length}`,
        text: String(body?.text),
        author: { id: 'p-ana', name: 'Ana Ruiz' },
        createdAt: 1_764_100_000_000,
        updatedAt: 1_764_100_000_000,
        versions: [],
      };
      notes.push(note);
      work.notes = notes.length;
      return Promise.resolve(answer(201, note));
    }
    const note = notes.find((one) => url.endsWith(`/notes/${one.id}`));
    if (!note) return Promise.resolve(answer(404, { error: 'Not Found', code: 404, message: 'No such note.' }));
    note.versions = [...note.versions, { text: note.text, at: note.updatedAt, by: note.author.name }];
    note.text = String(body?.text);
    note.updatedAt += 60_000;
    return Promise.resolve(answer(200, note));
  };
  return { work, sent, fetch, failNextChange: (status: number) => (failNext = status) };
}

let server: ReturnType<typeof standIn>;
beforeEach(() => {
  server = standIn();
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

const show = () => render(<CaseWorkPanel form="21" caseId="48217" />, { me: ME });

describe('CaseWorkPanel', { timeout: 20_000 }, () => {
  it('marks the case seen on opening, and sends a status and an assignee as they are chosen', async () => {
    const user = userEvent.setup({ delay: null });
    show();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the team’s work on this case…');
    const status = await screen.findByRole('combobox', { name: 'Status' });
    await waitFor(() =>
      expect(server.sent).toContainEqual({ method: 'PATCH', url: '/api/inbox/main/21/work', body: { cases: ['48217'], seen: true } }),
    );
    expect(status).toHaveDisplayValue('New');

    await user.selectOptions(status, 'Waiting on customer');
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: 'PATCH',
        url: '/api/inbox/main/21/work',
        body: { cases: ['48217'], status: 'waiting' },
      }),
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Waiting on customer'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Status' })).toBeEnabled());

    const assignee = screen.getByRole('combobox', { name: 'Assigned to' });
    expect(assignee).toHaveDisplayValue('Nobody');
    await user.selectOptions(assignee, 'Ben Okafor');
    await waitFor(() =>
      expect(server.sent).toContainEqual({
        method: 'PATCH',
        url: '/api/inbox/main/21/work',
        body: { cases: ['48217'], assignee: 'p-ben' },
      }),
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Assigned to' })).toHaveDisplayValue('Ben Okafor'));
  });

  it('keeps a note’s text when its save fails, says why, and adds it on the next try', async () => {
    const user = userEvent.setup({ delay: null });
    show();
    const box = await screen.findByRole('textbox', { name: 'Add a note' });
    await user.type(box, 'Sent a replacement{Enter}tracking 123');
    server.failNextChange(503);
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Not saved: The database is busy\. Your text is still here\./);
    expect(box).toHaveValue('Sent a replacement\ntracking 123');

    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const notes = await screen.findByRole('list', { name: 'Notes' });
    await waitFor(() => expect(within(notes).getAllByRole('listitem')).toHaveLength(2));
    expect(within(notes).getByText(/Sent a replacement\s+tracking 123/)).toBeInTheDocument();
    expect(box).toHaveValue('');
    expect(screen.getByRole('heading', { name: 'Notes (2)' })).toBeInTheDocument();
  });

  it('lets a person edit only their own notes, and shows the earlier text of an edited one', async () => {
    const user = userEvent.setup({ delay: null });
    show();
    await user.type(await screen.findByRole('textbox', { name: 'Add a note' }), 'Refund agreed');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const notes = await screen.findByRole('list', { name: 'Notes' });
    await waitFor(() => expect(within(notes).getAllByRole('listitem')).toHaveLength(2));
    // Ben's note has no Edit; Ana's own has one.
    const edits = within(notes).getAllByRole('button', { name: /^Edit your note of / });
    expect(edits).toHaveLength(1);
    await user.click(edits[0] as HTMLElement);
    const editBox = screen.getByRole('textbox', { name: 'Edit your note' });
    await user.clear(editBox);
    await user.type(editBox, 'Refund sent');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(await within(notes).findByText('Refund sent')).toBeInTheDocument();
    expect(server.sent.at(-1)).toEqual({ method: 'PUT', url: '/api/inbox/main/21/cases/48217/notes/n-1', body: { text: 'Refund sent' } });

    const earlier = within(notes).getByRole('button', { name: 'Edited · show earlier text' });
    expect(earlier).toHaveAttribute('aria-expanded', 'false');
    await user.click(earlier);
    expect(earlier).toHaveAttribute('aria-expanded', 'true');
    expect(within(screen.getByRole('list', { name: 'Earlier texts, oldest first' })).getByText('Refund agreed')).toBeVisible();
  });

  it('says when the work cannot be loaded, and loads it on Try again', async () => {
    const user = userEvent.setup({ delay: null });
    let down = true;
    const working = server.fetch;
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
      down && url.includes('/cases/')
        ? Promise.resolve(answer(500, { error: 'Internal Server Error', code: 500, message: 'It broke.' }))
        : working(url, init),
    );
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent(/The team’s work could not be loaded/);
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('combobox', { name: 'Status' })).toHaveDisplayValue('New');
    expect(screen.getByText('Called the customer')).toBeInTheDocument();
  });
});
