import { describe, expect, it } from 'vitest';
import { STEPS, stepOfPath } from './steps';

describe('STEPS', () => {
  it('lists the five steps in order', () => {
    expect(STEPS.map((s) => s.id)).toEqual(['basics', 'placement', 'pricing', 'attributes', 'review']);
    expect(STEPS.map((s) => s.label)).toEqual([
      'Basics',
      'Placement and details',
      'Pricing and inventory',
      'Attributes and options',
      'Review',
    ]);
  });
});

describe('stepOfPath', () => {
  it.each([
    ['name', 'basics'],
    ['slug', 'basics'],
    ['slugEdited', 'basics'],
    ['enabled', 'basics'],
    ['weighting', 'basics'],
    ['releaseAt', 'basics'],
    ['expiryAt', 'basics'],
    ['categories', 'placement'],
    ['categories.0', 'placement'],
    ['secureZones', 'placement'],
    ['fields.0', 'placement'],
    ['fields.4', 'placement'],
    ['prices.usd.0', 'pricing'],
    ['prices', 'pricing'],
    ['inventory.2', 'pricing'],
    ['attributes', 'attributes'],
    ['attributes.1.name', 'attributes'],
    ['attributes.1.options.2.prices.eur.1', 'attributes'],
    ['attributes.1.options.2.inventory', 'attributes'],
    ['', 'review'],
    ['body', 'review'],
    ['nameX', 'review'],
    ['toString', 'review'],
    ['__proto__', 'review'],
  ])('%j → %s', (path, step) => expect(stepOfPath(path)).toBe(step));
});
