import { describe, expect, it } from 'vitest';
import { grantsFromMatrix, matrixFromGrants } from './grants-matrix-model';

const SITES = ['harbour-linen', 'summit-outfitters'];

describe('the grants matrix', () => {
  it('has a row for every site and for each site, "none" where there is no grant', () => {
    expect(matrixFromGrants([{ siteId: 'summit-outfitters', role: 'editor' }], SITES)).toEqual({
      '*': 'none',
      'harbour-linen': 'none',
      'summit-outfitters': 'editor',
    });
  });

  it('gives back the grants it was made from, every site first, and leaves "none" out', () => {
    const grants = [
      { siteId: '*', role: 'support' as const },
      { siteId: 'harbour-linen', role: 'editor' as const },
    ];
    expect(grantsFromMatrix(matrixFromGrants(grants, SITES), SITES)).toEqual(grants);
    expect(grantsFromMatrix({ 'summit-outfitters': 'owner', '*': 'none', 'harbour-linen': 'support' }, SITES)).toEqual([
      { siteId: 'harbour-linen', role: 'support' },
      { siteId: 'summit-outfitters', role: 'owner' },
    ]);
  });

  it('keeps a grant on a site the profile no longer lists, rather than dropping it unseen', () => {
    expect(grantsFromMatrix(matrixFromGrants([{ siteId: 'gone', role: 'support' }], SITES), SITES)).toEqual([
      { siteId: 'gone', role: 'support' },
    ]);
  });
});
