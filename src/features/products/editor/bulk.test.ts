import { describe, expect, it } from 'vitest';
import { emptyOption } from '../model/product-form';
import { optionLike, partValues } from './bulk';

const source = () => {
  const option = { ...emptyOption(), name: 'Small', enabled: false, inventory: '4', fields: ['S-1', '', '', 'a.jpg'] };
  option.prices.usd = ['2.50', '3.00'];
  return option;
};

describe('partValues', () => {
  it('copies exactly the part asked for, never the name', () => {
    expect(partValues(source(), 'prices').map(([path]) => path)).toEqual(['prices']);
    expect(partValues(source(), 'fields')).toEqual([['fields', ['S-1', '', '', 'a.jpg']]]);
    expect(partValues(source(), 'stock')).toEqual([['inventory', '4']]);
    expect(partValues(source(), 'all').map(([path]) => path)).toEqual(['prices', 'fields', 'inventory']);
  });

  it('gives copies: editing the copy later leaves the source alone', () => {
    const from = source();
    const [[, prices]] = partValues(from, 'prices') as [[string, { usd: string[] }]];
    prices.usd[0] = '9.99';
    expect(from.prices.usd[0]).toBe('2.50');
  });
});

describe('optionLike', () => {
  it('starts a new option from the previous one, with its own key and no name', () => {
    const fresh = emptyOption();
    const like = optionLike(source(), fresh);
    expect(like).toMatchObject({ key: fresh.key, name: '', enabled: false, inventory: '4', fields: ['S-1', '', '', 'a.jpg'] });
    expect(like.prices.usd).toEqual(['2.50', '3.00']);
  });
});
