import { describe, expect, it } from 'vitest';
import { ALL_SITES, type CapabilityOverride } from '@/contract/access';
import { changeTo, settingOf } from './role-capabilities-model';

const overrides: CapabilityOverride[] = [
  { siteId: ALL_SITES, role: 'support', capability: 'export', allowed: true },
  { siteId: 'harbour', role: 'support', capability: 'export', allowed: false },
];

describe('what a role may export, as the People page shows it', () => {
  it('says where each setting comes from: the site’s own, every site’s, or the role’s default', () => {
    expect(settingOf(overrides, 'harbour', 'support', 'export')).toEqual({ allowed: false, source: 'this-site' });
    expect(settingOf(overrides, 'summit', 'support', 'export')).toEqual({ allowed: true, source: 'every-site' });
    expect(settingOf(overrides, ALL_SITES, 'support', 'export')).toEqual({ allowed: true, source: 'this-site' });
    expect(settingOf(overrides, 'summit', 'editor', 'export')).toEqual({ allowed: true, source: 'default' });
    expect(settingOf([], 'summit', 'support', 'export')).toEqual({ allowed: false, source: 'default' });
  });

  it('removes an override when a switch goes back to what the site inherits, and sets one otherwise', () => {
    expect(changeTo(overrides, 'harbour', 'support', 'export', true)).toEqual({
      siteId: 'harbour',
      role: 'support',
      capability: 'export',
      allowed: null,
    });
    expect(changeTo(overrides, 'summit', 'support', 'export', false)).toEqual({
      siteId: 'summit',
      role: 'support',
      capability: 'export',
      allowed: false,
    });
    expect(changeTo(overrides, ALL_SITES, 'support', 'export', false)).toEqual({
      siteId: ALL_SITES,
      role: 'support',
      capability: 'export',
      allowed: null,
    });
    expect(changeTo([], ALL_SITES, 'editor', 'export', false)).toEqual({
      siteId: ALL_SITES,
      role: 'editor',
      capability: 'export',
      allowed: false,
    });
  });
});
