import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { BASE_FIELDS } from '../model/registry';
import { fieldsForSite } from '../model/site-fields';
import { importColumns, matchColumns, normaliseLabel, templateHeader } from './columns';

const HARBOUR: SiteConfig = {
  id: 'harbour-linen',
  name: 'Harbour Linen',
  platform: { sandbox: true, siteId: '1001' },
  money: { currencies: ['aud', 'nzd'], decimals: 4 },
  labels: {
    productFields: { '3': { label: 'Product code (SKU)' } },
    priceTiers: { '3': { hidden: true }, '4': { hidden: true } },
    optionFields: { '2': { label: 'Product code (SKU)' } },
  },
};
const harbour = fieldsForSite(siteInfoOf(HARBOUR));

describe('matchColumns', () => {
  it('matches by label and by wire key, whatever the case, spacing and punctuation', () => {
    const matches = matchColumns(
      ['NAME', ' slug ', 'usd price', 'Option Name', 'attributes[].name', 'ATTRIBUTES[].ITEMS[].ENABLED'],
      BASE_FIELDS,
    );
    expect(matches.map((m) => [m.column, m.how])).toEqual([
      // The key and the label are the same word here.
      ['name', 'key'],
      ['slug', 'key'],
      ['module_field_14/product/price/usd/1', 'label'],
      ['attributes[].items[].name', 'label'],
      ['attributes[].name', 'key'],
      ['attributes[].items[].enabled', 'key'],
    ]);
  });

  it('reads the template’s own headers back to the same columns, for every site', () => {
    for (const fields of [BASE_FIELDS, harbour]) {
      const columns = importColumns(fields);
      const matches = matchColumns(columns.map(templateHeader), fields);
      expect(matches.map((m) => m.column)).toEqual(columns.map((c) => c.id));
    }
  });

  it('uses the site profile’s labels, and prefers the bracketed key over a label', () => {
    const [sku, bracketed] = matchColumns(
      ['product code (sku)', 'Whatever it says [attributes[].items[].module_field_14/product_attribute_option_2]'],
      harbour,
    );
    // Two fields share this label on the site: the header says nothing about which, so it is left to the person.
    expect(sku).toEqual({ header: 'product code (sku)', column: null, how: 'ambiguous' });
    expect(bracketed?.column).toBe('attributes[].items[].module_field_14/product_attribute_option_2');
  });

  it('shows what it cannot match, and never gives one field to two headers', () => {
    const matches = matchColumns(['Product name', 'Colour family', 'name', 'EUR, Price'], harbour);
    expect(matches.map((m) => m.how)).toEqual(['none', 'none', 'key', 'none']);
    const twice = matchColumns(['AUD, Price', 'aud price'], harbour);
    expect(twice.map((m) => m.how)).toEqual(['label', 'duplicate']);
  });

  it('applies a mapping chosen by hand on this site, including “ignore”', () => {
    const matches = matchColumns(['Colour family', 'Notes'], BASE_FIELDS, {
      [normaliseLabel('Colour family')]: 'attributes[].items[].module_field_14/product_attribute_option_2',
      notes: null,
    });
    expect(matches).toEqual([
      { header: 'Colour family', column: 'attributes[].items[].module_field_14/product_attribute_option_2', how: 'remembered' },
      { header: 'Notes', column: null, how: 'remembered' },
    ]);
  });

  it('property: any order, case and spacing of the template headers maps each header to its own column', () => {
    const columns = importColumns(harbour);
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...columns], { minLength: 1 }),
        fc.array(fc.boolean(), { minLength: columns.length, maxLength: columns.length }),
        fc.constantFrom('id', 'label', 'both'),
        (picked, upper, form) => {
          const headers = picked.map((column, i) => {
            const text = form === 'id' ? column.id : form === 'label' ? column.label : templateHeader(column);
            return `  ${upper[i] ? text.toUpperCase() : text.toLowerCase()} `;
          });
          const matched = matchColumns(headers, harbour).map((m) => m.column);
          const expected = picked.map((c) => (form === 'label' && c.label === 'Product code (SKU)' ? null : c.id));
          expect(matched).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 4242 },
    );
  });
});
