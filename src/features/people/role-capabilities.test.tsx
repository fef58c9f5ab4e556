import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CapabilityOverride } from '@/contract/access';
import { ROLE_OVERRIDES_PATH } from '@/contract/people-paths';
import type { RoleCapabilityChange } from '@/contract/people';
import { render } from '@/test/render';
import { RoleCapabilities } from './role-capabilities';

const SITES = [
  { id: 'harbour-linen', name: 'Harbour Linen' },
  { id: 'summit-outfitters', name: 'Summit Outfitters' },
];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let overrides: CapabilityOverride[];
let sent: RoleCapabilityChange[];
/** The server's answer to the next PUT, when it refuses it. */
let refuseNext: { status: number; message: string } | undefined;

/** Our server's role-capabilities endpoint, over `overrides`. */
function server(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const view = () => ({ sites: SITES, overrides: overrides.map((o) => ({ ...o, changedAt: 1, changedBy: 'p1' })) });
  if (String(input) !== ROLE_OVERRIDES_PATH) return Promise.resolve(json(404, { code: 404, error: 'Not Found', message: 'no' }));
  if ((init?.method ?? 'GET') === 'GET') return Promise.resolve(json(200, view()));
  const change = JSON.parse(String(init?.body)) as RoleCapabilityChange;
  sent.push(change);
  if (refuseNext) {
    const { status, message } = refuseNext;
    refuseNext = undefined;
    return Promise.resolve(json(status, { code: status, error: 'Service Unavailable', message }));
  }
  overrides = overrides.filter((o) => !(o.siteId === change.siteId && o.role === change.role && o.capability === change.capability));
  if (change.allowed !== null) overrides.push({ ...change, allowed: change.allowed });
  return Promise.resolve(json(200, view()));
}

beforeEach(() => {
  overrides = [];
  sent = [];
  refuseNext = undefined;
  vi.stubGlobal('fetch', vi.fn<typeof fetch>(server));
});
afterEach(() => vi.unstubAllGlobals());

describe('what each role may do, on the People page', () => {
  it('shows the defaults: owners always, editors yes, support no, on every site and each', async () => {
    render(<RoleCapabilities />);
    const editors = await screen.findByRole('switch', { name: 'Editors may export cases on every site' });
    expect(editors).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Support staff may export cases on Harbour Linen' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Support staff may export cases on Summit Outfitters' })).not.toBeChecked();
    expect(screen.getAllByText('Always')).toHaveLength(3);
  });

  it('allows support on one site with the keyboard, saves it at once, and says so', async () => {
    const user = userEvent.setup();
    render(<RoleCapabilities />);
    const support = await screen.findByRole('switch', { name: 'Support staff may export cases on Harbour Linen' });
    support.focus();
    await user.keyboard(' ');
    await waitFor(() => expect(support).toBeChecked());
    expect(sent).toEqual([{ siteId: 'harbour-linen', role: 'support', capability: 'export', allowed: true }]);
    expect(screen.getByRole('status')).toHaveTextContent('Saved: support staff may export cases on Harbour Linen.');
    expect(screen.getByRole('switch', { name: 'Support staff may export cases on Summit Outfitters' })).not.toBeChecked();
    // Put back: the site's own setting goes, rather than a copy of what it inherits.
    await user.keyboard(' ');
    await waitFor(() => expect(support).not.toBeChecked());
    expect(sent.at(-1)).toEqual({ siteId: 'harbour-linen', role: 'support', capability: 'export', allowed: null });
  });

  it('says what was not changed and why when the server refuses, leaving the switch as it was', async () => {
    const user = userEvent.setup();
    refuseNext = { status: 503, message: 'The activity record could not take this change, so it was not made. Try again in a moment.' };
    render(<RoleCapabilities />);
    const editors = await screen.findByRole('switch', { name: 'Editors may export cases on Summit Outfitters' });
    await user.click(editors);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Whether editors may export cases on Summit Outfitters stays as it was');
    expect(alert).toHaveTextContent('The activity record could not take this change');
    expect(editors).toBeChecked();
  });
});
