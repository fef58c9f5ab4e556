import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkSiteProfile, type SiteProfile } from '../src/contract/site-profile';

const EXAMPLE = readFileSync(new URL('./site-profile.example.json', import.meta.url), 'utf8');

describe('the example profile', () => {
  it('is a valid profile of two sandbox sites with different currencies, precision and category encodings', () => {
    const check = checkSiteProfile(EXAMPLE);
    expect(check.ok).toBe(true);
    const profile = (check as { profile: SiteProfile }).profile;
    expect(profile.sites.map((s) => [s.id, s.money?.currencies, s.money?.decimals, s.references?.categoryEncoding])).toEqual([
      ['harbour-linen', ['aud', 'nzd'], 4, 'ids'],
      ['summit-outfitters', ['usd', 'cad', 'gbp'], 2, 'objects'],
    ]);
    // The first site names the sandbox's forms, the warranty claims' list among them, and its lists' envelope.
    expect(Object.keys(profile.sites[0]?.forms ?? {})).toEqual(['3', '7', '21']);
    expect(profile.sites[0]?.lists).toEqual({ envelope: 'results' });
  });
});
