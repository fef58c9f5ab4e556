/**
 * Rows that update products of the site: matched by slug against the catalogue the dry run read, attributes
 * and options found by id where the file keeps it and by name where it does not (and said so), blank cells
 * keeping the product's values, and the dry run's per-row diff and body (nothing when nothing changes).
 */
import { describe, expect, it } from 'vitest';
import { fullOption, fullProduct } from '@/contract/fixtures';
import { productFingerprint, readProductRecord } from '@/contract/products';
import { optionPriceKey, productPriceKey } from '@/contract/site-api';
import { settingsForLocale } from '../model/codec';
import { checkImport } from './check';
import { mappingOf, matchColumns } from './columns';
import { parseSheet } from './parse';
import type { CatalogueProduct } from './updates';

const EN = settingsForLocale('en-US');
const PRICE = productPriceKey('usd', 1);
const ADDED = optionPriceKey('usd', 1);

/** The site's product as the platform lists it: fullProduct's fields, with ids on it, its attributes and options. */
async function siteProduct(): Promise<CatalogueProduct> {
  const json = fullProduct('linen-throw', [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { ...fullOption('Sand', 1), id: '77' },
        { ...fullOption('Charcoal', 2), id: '78' },
      ],
    },
    { id: '32', name: 'Size', enabled: 'true', items: [{ ...fullOption('Single', 0), id: '79' }] },
  ]);
  json.id = '1042';
  const read = readProductRecord(json);
  if (!read.ok) throw new Error(read.problem);
  return { id: '1042', slug: 'linen-throw', record: read.record, unknown: read.unknown, fingerprint: await productFingerprint(json) };
}

async function check(lines: string[], created: string[] = []) {
  const product = await siteProduct();
  const sheet = parseSheet(lines.join('\n'));
  const mapping = mappingOf(matchColumns(sheet.headers, EN.fields));
  expect(mapping.every((m) => m !== null)).toBe(true);
  const result = checkImport(
    sheet.rows,
    mapping,
    {},
    {
      settings: EN,
      site: undefined,
      createdSlugs: new Set(created),
      catalogue: new Map([[product.slug, product]]),
    },
  );
  return { product, result };
}

describe('an import of updates', () => {
  it('makes a row whose slug is a product of the site its update: only the cells filled change, the diff and body say exactly that', async () => {
    const { product, result } = await check([`slug,${PRICE},name`, 'linen-throw,24.50,', 'new-throw,12,New throw']);
    const [update, created] = result.products;
    expect(update?.problems).toEqual([]);
    expect(update?.action).toMatchObject({ kind: 'update', id: '1042', fingerprint: product.fingerprint });
    if (update?.action.kind !== 'update') throw new Error('not an update');
    expect(update.action.changes).toEqual([{ kind: 'changed', label: 'USD, Price', before: '$20.19', after: '$24.50' }]);
    // The blank name keeps the product's; name and enabled go with every update.
    expect(update.action.body).toEqual({ name: 'Linen throw', enabled: 'true', [PRICE]: '2450' });
    expect(created?.action).toEqual({ kind: 'new' });
    expect(result.ready).toBe(2);
  });

  it('skips a row that changes nothing, and does not call its slug a duplicate of one created on the site', async () => {
    const { result } = await check([`slug,${PRICE}`, 'linen-throw,20.19'], ['linen-throw']);
    expect(result.products[0]?.problems).toEqual([]);
    expect(result.products[0]?.action).toEqual({ kind: 'unchanged', id: '1042', matches: [] });
  });

  it('finds options by name within their attribute where the file keeps no id, and says so (a name in other case renames it)', async () => {
    const { result } = await check([
      `slug,attributes[].name,attributes[].items[].name,attributes[].items[].${ADDED}`,
      'linen-throw,Colour,Sand,2.50',
      ',,charcoal,',
    ]);
    const action = result.products[0]?.action;
    if (action?.kind !== 'update') throw new Error('not an update');
    expect(action.matches).toEqual([
      { item: 'Attribute “Colour”', how: 'matched by name' },
      { item: 'Attribute “Colour” › Option “Sand”', how: 'matched by name' },
      { item: 'Attribute “Colour” › Option “Charcoal”', how: 'matched by name' },
    ]);
    expect(action.changes).toEqual([
      { kind: 'changed', label: 'Attribute “Colour” › Option “Sand” › USD, Added to price', before: '$1.10', after: '$2.50' },
      { kind: 'changed', label: 'Attribute “Colour” › Option “Charcoal” › Option name', before: 'Charcoal', after: 'charcoal' },
    ]);
    // The attribute and options by id; the rest of the product (Size, every other field) is left as it is.
    expect(action.body).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      attributes: [
        {
          id: '31',
          name: 'Colour',
          items: [
            { id: '77', name: 'Sand', [ADDED]: '250' },
            { id: '78', name: 'charcoal' },
          ],
        },
      ],
    });
  });

  it('finds an option by its id where the file keeps it, so its name can change; a new option is added, said new', async () => {
    const { result } = await check([
      'slug,attributes[].id,attributes[].name,attributes[].items[].id,attributes[].items[].name',
      'linen-throw,31,Colour,78,Charcoal grey',
      ',,,,Olive',
    ]);
    const action = result.products[0]?.action;
    if (action?.kind !== 'update') throw new Error('not an update');
    expect(action.matches).toEqual([
      { item: 'Attribute “Colour”', how: 'by id' },
      { item: 'Attribute “Colour” › Option “Charcoal”', how: 'by id' },
      { item: 'Attribute “Colour” › Option “Olive”', how: 'new' },
    ]);
    expect(action.changes.map((c) => [c.kind, c.label, c.after])).toEqual([
      ['changed', 'Attribute “Colour” › Option “Charcoal” › Option name', 'Charcoal grey'],
      ['added', 'Attribute “Colour” › Option “Olive” › Option name', 'Olive'],
      ['added', 'Attribute “Colour” › Option “Olive” › Option enabled', 'Yes'],
    ]);
    expect(action.body.attributes).toEqual([
      {
        id: '31',
        name: 'Colour',
        items: [
          { id: '78', name: 'Charcoal grey' },
          { name: 'Olive', enabled: 'true' },
        ],
      },
    ]);
  });

  it('stops an id the product does not have, and an id on a product that is not on the site, on its cell', async () => {
    const { result } = await check([
      'slug,name,attributes[].id,attributes[].name,attributes[].items[].id,attributes[].items[].name',
      'linen-throw,,31,Colour,999,Sand',
      'new-throw,New throw,31,Colour,,Sand',
    ]);
    // Not found by its id, the row would be a new option, whose name the attribute already has.
    expect(result.products[0]?.problems).toEqual([
      {
        row: 0,
        column: 4,
        message: 'This product has no option in this attribute with id “999”: correct the id, or leave it blank to match by name',
      },
      { row: 0, column: 5, message: 'another option of this attribute (option 1) is already called "Sand"' },
    ]);
    expect(result.products[1]?.problems).toEqual([
      {
        row: 1,
        column: 2,
        message:
          'An id names an attribute or option of a product of the site, but the site has no product with slug “new-throw”: leave it blank for a new product',
      },
    ]);
    expect(result.ready).toBe(0);
  });
});
