import { describe, expect, it } from 'vitest';
import type { SiteInfo } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { planEnvelopeChecks, readEnvelopeOutcome } from './list-envelope-probe';

const CASE = '{"id":"50001","created_at":1777600000,"properties":{"email":"ana@example.com"}}';
/** The sandbox's answer to `?per_page=1` of a form of 340 cases. */
const RESULTS = `{"results":[${CASE}],"total_entries":340,"total_pages":340,"current_page":1,"per_page":1}`;
const DATA_META = `{"data":[${CASE}],"meta":{"total":340,"page":1,"per_page":1}}`;
const ok = (text: string) => ({ status: 200, platformStatus: 200, retryAfter: null, text });

const served = (id: string, can?: SiteInfo['can']): SiteInfo => ({
  id,
  name: id,
  mode: 'sandbox',
  siteId: '1001',
  currencies: ['usd'],
  decimals: 2,
  ...(can ? { can } : {}),
});
const site = (id: string, extra: Partial<SiteConfig> = {}): SiteConfig => ({
  id,
  name: `Site ${id}`,
  platform: { sandbox: true, siteId: '1001' },
  ...extra,
});

describe('planEnvelopeChecks', () => {
  it('tries the first form of each site this server has and the person may look up on, and says why not for the rest', () => {
    const plans = planEnvelopeChecks(
      [
        site('main', { forms: { '21': { name: 'Warranty claims' }, '3': {} }, lists: { envelope: 'data-meta' } }),
        site('no-forms'),
        site('elsewhere', { forms: { '3': {} } }),
        site('support-only', { forms: { '3': {} } }),
      ],
      [served('main'), served('no-forms'), served('support-only', ['export'])],
    );
    expect(plans.map((plan) => [plan.id, plan.kind])).toEqual([
      ['main', 'try'],
      ['no-forms', 'no-forms'],
      ['elsewhere', 'not-on-this-server'],
      ['support-only', 'no-lookup'],
    ]);
    // Object keys that are numbers come in ascending order: form 3 is the first named.
    expect(plans[0]).toMatchObject({
      named: 'data-meta',
      byDefault: false,
      form: '3',
      path: '/api/s/main/site/v2/forms/3/cases?per_page=1',
      where: 'the built-in sandbox, site 1001',
      differs: null,
    });
    expect(plans[2]).toMatchObject({ named: 'results', byDefault: true });
  });

  it('says so when the profile puts the site somewhere else than this server does', () => {
    const [plan] = planEnvelopeChecks(
      [site('main', { forms: { '3': {} }, platform: { baseUrl: 'https://shop.example.com/api/site/v2', siteId: '77', apiKeyEnv: 'KEY' } })],
      [served('main')],
    );
    expect(plan).toMatchObject({ kind: 'try', differs: 'the profile puts it live at shop.example.com, site 77' });
  });
});

describe('readEnvelopeOutcome', () => {
  it('says the answer fits the envelope the profile names, and every envelope it fits', () => {
    expect(readEnvelopeOutcome(ok(RESULTS), 'results')).toEqual({ kind: 'fits', found: ['results'] });
    const both = `{"results":[${CASE}],"total_entries":1,"total_pages":1,"current_page":1,"per_page":1,"data":[],"meta":{"total":0,"page":1,"per_page":1}}`;
    expect(readEnvelopeOutcome(ok(both), 'data-meta')).toEqual({ kind: 'fits', found: ['results', 'data-meta'] });
  });

  it('names the envelope found, what is wrong with the one named, and keeps the raw answer', () => {
    expect(readEnvelopeOutcome(ok(DATA_META), 'results')).toEqual({
      kind: 'other',
      found: ['data-meta'],
      problem: 'it has no "results"',
      raw: DATA_META,
    });
    expect(readEnvelopeOutcome(ok('{"cases":[]}'), 'array')).toMatchObject({
      kind: 'other',
      found: [],
      problem: 'the answer is not a list',
    });
  });

  it('catches a platform that leaves per_page out: the envelope fits, the page does not', () => {
    const twenty = `{"results":[${Array.from({ length: 2 }, () => CASE).join(',')}],"total_entries":340,"total_pages":17,"current_page":1,"per_page":20}`;
    expect(readEnvelopeOutcome(ok(twenty), 'results')).toMatchObject({
      kind: 'other',
      found: ['results'],
      problem: 'its pages hold 20 cases, not 1 as asked',
    });
  });

  it('takes the platform’s 404 as no cases yet, and another failure as words', () => {
    const empty = '{"error":"Not Found","message":"The form does not contain any cases","code":404}';
    expect(readEnvelopeOutcome({ status: 404, platformStatus: 404, retryAfter: null, text: empty }, 'results')).toEqual({
      kind: 'no-cases',
    });
    const refused = '{"error":"Forbidden","message":"Your role on this site does not allow this.","code":403}';
    expect(readEnvelopeOutcome({ status: 403, platformStatus: null, retryAfter: null, text: refused }, 'results')).toEqual({
      kind: 'failed',
      message: 'site-admin refused this: your role on this site does not allow it. An owner can give you another role on the People page.',
    });
  });
});
