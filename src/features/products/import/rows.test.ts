import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Mapping } from './columns';
import { groupAttributes, groupRows } from './rows';

const MAPPING: Mapping = ['name', 'slug', 'attributes[].name', 'attributes[].items[].name', 'module_field_14/product/price/usd/1'];
const reader = (rows: string[][]) => (row: number, column: number) => rows[row]?.[column] ?? '';

describe('groupRows', () => {
  it('one row per option: blank product columns continue the product above; a product without attributes is one row', () => {
    const rows = [
      ['Throw', 'throw', 'Size', 'Small', '49.95'],
      ['', '', '', 'Large', ''],
      ['', '', 'Colour', 'Sand', ''],
      ['Mug', 'mug', '', '', '12'],
      ['Towel', 'towel', 'Size', 'M', '9'],
      ['Towel', 'towel', 'Size', 'L', '9'],
    ];
    const { products, problems } = groupRows(rows.length, MAPPING, reader(rows));
    expect(products).toEqual([{ rows: [0, 1, 2] }, { rows: [3] }, { rows: [4, 5] }]);
    expect(problems).toEqual([]);
    expect(groupAttributes([0, 1, 2], MAPPING, reader(rows))).toEqual([{ rows: [0, 1] }, { rows: [2] }]);
    expect(groupAttributes([3], MAPPING, reader(rows))).toEqual([]);
  });

  it('a repeated product column that differs from the first row is a problem on that cell', () => {
    const rows = [
      ['Towel', 'towel', 'Size', 'M', '9'],
      ['Towel', 'towel', 'Size', 'L', '10'],
    ];
    const { products, problems } = groupRows(rows.length, MAPPING, reader(rows));
    expect(products).toEqual([{ rows: [0, 1] }]);
    expect(problems).toEqual([{ row: 1, column: 4, message: expect.stringContaining('Differs from the product’s first row (row 2)') }]);
  });

  it('rows before any product are flagged, not dropped', () => {
    const rows = [['', '', 'Size', 'S', '']];
    const { products, problems } = groupRows(rows.length, MAPPING, reader(rows));
    expect(products).toEqual([{ rows: [0] }]);
    expect(problems[0]?.message).toMatch(/^No product/);
  });

  it('property: products written in the layout come back as the same products, options and attributes, in order', () => {
    const option = fc.record({ name: fc.stringMatching(/^[A-Za-z]{1,6}$/) });
    const attribute = fc.record({
      name: fc.stringMatching(/^[A-Z][a-z]{0,5}$/),
      options: fc.array(option, { minLength: 1, maxLength: 4 }),
    });
    const product = fc.record({
      name: fc.stringMatching(/^[A-Za-z ]{0,8}[A-Za-z]$/),
      price: fc.constantFrom('', '9.99', '12,50'),
      attributes: fc.uniqueArray(attribute, { maxLength: 3, selector: (a) => a.name }),
      repeat: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(product, { minLength: 1, maxLength: 8 }), (products) => {
        const rows: string[][] = [];
        const expected: { rows: number[]; attributes: { rows: number[] }[] }[] = [];
        products.forEach((p, index) => {
          const slug = `p-${index}`;
          const start = rows.length;
          const attributes: { rows: number[] }[] = [];
          const options = p.attributes.flatMap((a) => a.options.map((o, i) => ({ attribute: a.name, first: i === 0, option: o.name })));
          if (options.length === 0) rows.push([p.name, slug, '', '', p.price]);
          options.forEach((o, i) => {
            const own = i === 0 || p.repeat;
            if (o.first) attributes.push({ rows: [] });
            attributes.at(-1)?.rows.push(rows.length);
            // The attribute's name on its first row; blank below it continues it.
            rows.push([own ? p.name : '', own ? slug : '', o.first ? o.attribute : '', o.option, own ? p.price : '']);
          });
          expected.push({ rows: rows.slice(start).map((_, i) => start + i), attributes });
        });
        const grouped = groupRows(rows.length, MAPPING, reader(rows));
        expect(grouped.problems).toEqual([]);
        expect(grouped.products.map((g) => g.rows)).toEqual(expected.map((e) => e.rows));
        expect(grouped.products.map((g) => groupAttributes(g.rows, MAPPING, reader(rows)))).toEqual(expected.map((e) => e.attributes));
      }),
      { numRuns: 300, seed: 4242 },
    );
  });
});
