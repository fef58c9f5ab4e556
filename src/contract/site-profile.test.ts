import { describe, expect, it } from 'vitest';
import { siteInfoOf } from './site-info';
import { checkSiteProfile, flattenReferences } from './site-profile';

const minimal = () => ({ sites: [{ id: 'harbour-linen', name: 'Harbour Linen', platform: { sandbox: true, siteId: '1001' } }] });

/** The problems of a profile built from the minimal one by `edit`. */
function problemsOf(edit: (profile: ReturnType<typeof minimal> & Record<string, unknown>) => void) {
  const profile = minimal() as ReturnType<typeof minimal> & Record<string, unknown>;
  edit(profile);
  const check = checkSiteProfile(JSON.stringify(profile));
  return check.ok ? [] : check.problems;
}

const site = (profile: ReturnType<typeof minimal>) => profile.sites[0] as Record<string, unknown>;

describe('checkSiteProfile: every problem names its JSON path', () => {
  it('accepts the smallest profile', () => {
    expect(checkSiteProfile(JSON.stringify(minimal()))).toMatchObject({ ok: true });
  });

  it('a file that is not JSON', () => {
    expect(checkSiteProfile('{ sites: [')).toEqual({
      ok: false,
      problems: [{ path: '(the whole file)', message: expect.stringContaining('is not JSON') }],
    });
  });

  it.each<[string, (p: ReturnType<typeof minimal> & Record<string, unknown>) => void, string, RegExp]>([
    ['no sites', (p) => (p.sites = []), 'sites', /at least one site/],
    ['a site id with capitals', (p) => (site(p).id = 'Harbour Linen'), 'sites[0].id', /lower-case letters and digits joined by hyphens/],
    ['an unknown key', (p) => (site(p).colour = 'blue'), 'sites[0]', /"colour", which a site profile does not know/],
    [
      'a key in the profile instead of its variable',
      (p) => (site(p).platform = { baseUrl: 'https://www.example.com/api/site/v2', siteId: '12', apiKeyEnv: 'sk_live_abc123' }),
      'sites[0].platform.apiKeyEnv',
      /name of an environment variable .*not the key itself/,
    ],
    [
      'a base address not ending in /api/site/v2',
      (p) => (site(p).platform = { baseUrl: 'https://www.example.com/', siteId: '12', apiKeyEnv: 'KEY' }),
      'sites[0].platform.baseUrl',
      /ending in \/api\/site\/v2/,
    ],
    ['decimals of 3', (p) => (site(p).money = { decimals: 3 }), 'sites[0].money.decimals', /must be one of 2, 4/],
    [
      'an unknown currency',
      (p) => (site(p).money = { currencies: ['aud', 'jpy'] }),
      'sites[0].money.currencies[1]',
      /must be one of "aud"/,
    ],
    ['a currency twice', (p) => (site(p).money = { currencies: ['aud', 'aud'] }), 'sites[0].money.currencies', /twice/],
    [
      'an inbox column that is no field name',
      (p) => (site(p).forms = { '21': { inboxColumns: ['email', 'e mail'] } }),
      'sites[0].forms.21.inboxColumns[1]',
      /must be a field name/,
    ],
    [
      'an inbox column twice',
      (p) => (site(p).forms = { '21': { inboxColumns: ['email', 'email'] } }),
      'sites[0].forms.21.inboxColumns',
      /names a column twice/,
    ],
    [
      'a hidden tier 1',
      (p) => (site(p).labels = { priceTiers: { '1': { hidden: true } } }),
      'sites[0].labels.priceTiers.1.hidden',
      /cannot be hidden/,
    ],
    ['a product field 6', (p) => (site(p).labels = { productFields: { '6': { label: 'x' } } }), 'sites[0].labels.productFields', /.+/],
    [
      'an empty label',
      (p) => (site(p).labels = { productFields: { '1': { label: ' ' } } }),
      'sites[0].labels.productFields.1.label',
      /must not be empty/,
    ],
    [
      'a choice setting without choices',
      (p) => (site(p).labels = { inventory: { '1': { label: 'Type', kind: 'choice', choices: [] } } }),
      'sites[0].labels.inventory.1.choices',
      /at least one choice/,
    ],
    [
      'a category that is not a number',
      (p) => (site(p).references = { categories: [{ id: 'beds', name: 'Beds' }] }),
      'sites[0].references.categories[0].id',
      /numeric identifier/,
    ],
    [
      'a nested category without a name',
      (p) => (site(p).references = { categories: [{ id: '1', name: 'A', children: [{ id: '2' }] }] }),
      'sites[0].references.categories[0].children[0].name',
      /must be a string/,
    ],
    [
      'an unknown category encoding',
      (p) => (site(p).references = { categoryEncoding: 'csv' }),
      'sites[0].references.categoryEncoding',
      /"objects", "ids"/,
    ],
    [
      'an unknown list envelope',
      (p) => (site(p).lists = { envelope: 'items' }),
      'sites[0].lists.envelope',
      /"results", "data-meta", "array"/,
    ],
    ['a list setting the profile does not know', (p) => (site(p).lists = { itemsKey: 'data' }), 'sites[0].lists', /"itemsKey"/],
    [
      'a default category the site does not list',
      (p) => (site(p).defaults = { categories: ['99'] }),
      'sites[0].defaults.categories[0]',
      /not in references.categories/,
    ],
    ['two sites with one id', (p) => p.sites.push({ ...minimal().sites[0]!, name: 'Other' }), 'sites[1].id', /already the id of site 1/],
  ])('%s', (_what, edit, path, message) => {
    const problems = problemsOf(edit);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems).toContainEqual({ path, message: expect.stringMatching(message) });
  });
});

describe('what the browser gets', () => {
  it('never says where the key lives, and fills the defaults', () => {
    const info = siteInfoOf({
      id: 'live-shop',
      name: 'Live shop',
      platform: { baseUrl: 'https://shop.example.com/api/site/v2', siteId: '12345', apiKeyEnv: 'LIVE_SHOP_KEY' },
    });
    expect(info).toEqual({
      id: 'live-shop',
      name: 'Live shop',
      mode: 'platform',
      host: 'shop.example.com',
      siteId: '12345',
      currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'],
      decimals: 2,
    });
    expect(JSON.stringify(info)).not.toContain('LIVE_SHOP_KEY');
  });
});

describe('flattenReferences', () => {
  it('lists parents before children, each with the names above it', () => {
    const nodes = flattenReferences([
      { id: '1', name: 'Bedding', children: [{ id: '2', name: 'Throws', children: [{ id: '3', name: 'Wool' }] }] },
      { id: '4', name: 'Table' },
    ]);
    expect(nodes.map((n) => [n.id, n.trail])).toEqual([
      ['1', []],
      ['2', ['Bedding']],
      ['3', ['Bedding', 'Throws']],
      ['4', []],
    ]);
  });
});
