import { describe, expect, it } from 'vitest';
import { readSiteInfo, siteInfoOf, type SiteInfo } from './site-info';
import { checkSiteProfile } from './site-profile';

/** A profile of two sites using every part the browser gets (labels, forms, references, lists, defaults). */
const PROFILE = {
  sites: [
    {
      id: 'harbour-linen',
      name: 'Harbour Linen',
      platform: { sandbox: true, siteId: '1001' },
      money: { currencies: ['aud', 'nzd'], decimals: 4 },
      labels: { productFields: { '1': { label: 'Description', multiline: true } }, priceTiers: { '3': { hidden: true } } },
      forms: { '3': { name: 'Contact us', fields: { form_field_3_1: 'Phone' } } },
      references: {
        categoryEncoding: 'ids',
        categories: [{ id: '158198', name: 'Bedding', children: [{ id: '158199', name: 'Throws' }] }],
      },
      lists: { envelope: 'data-meta' },
      defaults: { enabled: true, weighting: '10', categories: ['158198'] },
    },
    {
      id: 'live-shop',
      name: 'Live shop',
      platform: { baseUrl: 'https://shop.example.com/api/site/v2', siteId: '9', apiKeyEnv: 'LIVE_SHOP_KEY' },
    },
  ],
};

/** The profile's sites as GET /api/sites sends them: through JSON. */
function sentSites(): Record<string, unknown>[] {
  const check = checkSiteProfile(JSON.stringify(PROFILE));
  if (!check.ok) throw new Error(`the test profile has problems: ${JSON.stringify(check.problems)}`);
  return JSON.parse(JSON.stringify(check.profile.sites.map(siteInfoOf))) as Record<string, unknown>[];
}

describe('readSiteInfo', () => {
  it('reads every site the server sends as the server made it', () => {
    const sites = sentSites();
    expect(sites.map((site) => Object.keys(site).length)).toEqual([11, 7]);
    for (const site of sites) expect(readSiteInfo(site)).toEqual(site);
  });

  it('keeps a live site’s host, and leaves out keys it does not know', () => {
    const live = sentSites()[1] ?? {};
    expect(readSiteInfo({ ...live, extra: 'x' })).toEqual(live);
    expect(readSiteInfo(live)?.host).toBe('shop.example.com');
  });

  it.each<[string, (site: Record<string, unknown>) => void]>([
    ['no id', (s) => delete s.id],
    ['a numeric name', (s) => (s.name = 3)],
    ['an unknown mode', (s) => (s.mode = 'staging')],
    ['a host that is not text', (s) => (s.host = 1)],
    ['no site id', (s) => delete s.siteId],
    ['an unknown currency', (s) => (s.currencies = ['usd', 'jpy'])],
    ['currencies that are not a list', (s) => (s.currencies = 'usd')],
    ['3 decimals', (s) => (s.decimals = 3)],
  ])('refuses a site with %s', (_, edit) => {
    const site = sentSites()[0] ?? {};
    edit(site);
    expect(readSiteInfo(site)).toBeNull();
  });

  it('refuses what is not a site at all', () => {
    for (const value of [null, 'site', [], 42]) expect(readSiteInfo(value)).toBeNull();
    const typed: SiteInfo | null = readSiteInfo({});
    expect(typed).toBeNull();
  });
});
