import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PLATFORM_STATUS_HEADER } from '@/contract/server-meta';
import type { SiteConfig } from '@/contract/site-profile';
import { render, TEST_SITE } from '@/test/render';
import { ListEnvelopeCheck, RAW_SHOWN_CHARACTERS } from './list-envelope-check';

const CASE = '{"id":"50001","created_at":1777600000,"properties":{"email":"ana@example.com"}}';
const RESULTS = `{"results":[${CASE}],"total_entries":340,"total_pages":340,"current_page":1,"per_page":1}`;

/** What the page asked for, and the answer each address gets. */
let asked: string[];
let answers: Record<string, { status: number; platformStatus?: number; text: string }>;

beforeEach(() => {
  asked = [];
  answers = {};
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input) => {
      const path = String(input);
      asked.push(path);
      const answer = answers[path];
      if (!answer) return Promise.reject(new TypeError('Failed to fetch'));
      const headers = answer.platformStatus === undefined ? undefined : { [PLATFORM_STATUS_HEADER]: String(answer.platformStatus) };
      return Promise.resolve(new Response(answer.text, { status: answer.status, headers }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const profileSite = (extra: Partial<SiteConfig> = {}): SiteConfig => ({
  id: 'main',
  name: 'Sandbox',
  platform: { sandbox: true, siteId: '1001' },
  forms: { '21': { name: 'Warranty claims' } },
  ...extra,
});
const LIST = '/api/s/main/site/v2/forms/21/cases?per_page=1';
const item = () => within(screen.getByRole('list', { name: 'The list envelope of each site' })).getAllByRole('listitem');

describe('ListEnvelopeCheck', { timeout: 20_000 }, () => {
  it('asks for one case of the first form and says the answer is the envelope the profile names', async () => {
    answers[LIST] = { status: 200, platformStatus: 200, text: RESULTS };
    const user = userEvent.setup();
    render(<ListEnvelopeCheck profile={[profileSite()]} />);
    expect(asked).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Try the list envelopes' }));
    expect(await screen.findByText(/Form 21 answers the “results” envelope, which the profile names \(the default\)\./)).toBeVisible();
    expect(asked).toEqual([LIST]);
    expect(item()[0]).toHaveTextContent('on this server: the built-in sandbox, site 1001');
  });

  it('names the envelope found when it is not the one named, with the raw answer, bounded', async () => {
    const long = `{"data":[${Array.from({ length: 60 }, () => CASE).join(',')}],"meta":{"total":340,"page":1,"per_page":60}}`;
    answers[LIST] = { status: 200, platformStatus: 200, text: long };
    const user = userEvent.setup();
    render(<ListEnvelopeCheck profile={[profileSite({ lists: { envelope: 'results' } })]} />);
    await user.click(screen.getByRole('button', { name: 'Try the list envelopes' }));
    expect(
      await screen.findByText(
        /Form 21 answers the “data-meta” envelope, not the “results” the profile names \(it has no "results"\): set sites\[\]\.lists\.envelope to “data-meta”/,
      ),
    ).toBeVisible();
    await user.click(screen.getByText(`The answer as it came (the first 2,000 of ${long.length.toLocaleString('en')} characters)`));
    const raw = screen.getByRole('region', { name: 'The platform’s answer to the list' });
    expect(raw.textContent).toBe(long.slice(0, RAW_SHOWN_CHARACTERS));
  });

  it('says “no cases yet” for the platform’s 404, and why a list could not be read', async () => {
    answers[LIST] = {
      status: 404,
      platformStatus: 404,
      text: '{"error":"Not Found","message":"The form does not contain any cases","code":404}',
    };
    const user = userEvent.setup();
    const { unmount } = render(<ListEnvelopeCheck profile={[profileSite()]} />);
    await user.click(screen.getByRole('button', { name: 'Try the list envelopes' }));
    expect(await screen.findByText(/Form 21 has no cases yet \(the platform answered 404/)).toBeVisible();
    expect(screen.getByText('no cases yet')).toBeVisible();
    unmount();

    answers[LIST] = { status: 502, text: '{"error":"Bad Gateway","message":"The platform did not answer.","code":502}' };
    render(<ListEnvelopeCheck profile={[profileSite()]} />);
    await user.click(screen.getByRole('button', { name: 'Try the list envelopes' }));
    expect(
      await screen.findByText(/Form 21’s list could not be read: site-admin’s server is running, but could not reach the platform/),
    ).toBeVisible();
  });

  it('skips, saying why, a site without forms and one this server does not have', () => {
    render(
      <ListEnvelopeCheck profile={[profileSite({ forms: undefined }), profileSite({ id: 'harbour-linen', name: 'Harbour Linen' })]} />,
    );
    expect(item()[0]).toHaveTextContent('Sandbox main names no forms, so it has no list to try.');
    expect(item()[1]).toHaveTextContent('Harbour Linen harbour-linen is not a site of this server that you may use');
    expect(screen.getByRole('button', { name: 'Try the list envelopes' })).toBeDisabled();
    expect(asked).toEqual([]);
  });

  it('does not ask for the list of a site the person may not look up cases on', () => {
    render(<ListEnvelopeCheck profile={[profileSite()]} />, { site: { ...TEST_SITE, can: ['export'] } });
    expect(item()[0]).toHaveTextContent('not tried: you may not look up cases on this site');
    expect(screen.getByRole('button', { name: 'Try the list envelopes' })).toBeDisabled();
    expect(asked).toEqual([]);
  });
});
