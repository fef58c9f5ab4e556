import { describe, expect, it } from 'vitest';
import { validateProduct } from '@/contract/rules';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { decodeProduct, encodeProduct, settingsForSite } from './codec';
import { wireFieldToFormPath } from './error-paths';
import { emptyAttribute, emptyOption, emptyProduct, type ProductForm } from './product-form';
import { describePath, gridOf, pathsOfStep } from './registry';
import { fieldsForSite, newProductFor } from './site-fields';

const HARBOUR: SiteConfig = {
  id: 'harbour-linen',
  name: 'Harbour Linen',
  platform: { sandbox: true, siteId: '1001' },
  money: { currencies: ['aud', 'nzd'], decimals: 4 },
  labels: {
    productFields: { '1': { label: 'Description', multiline: true }, '3': { label: 'Product code (SKU)', help: 'Unique per product' } },
    priceTiers: { '3': { hidden: true }, '4': { hidden: true } },
    inventory: {
      '1': { label: 'Inventory type', kind: 'choice', choices: [{ value: 'global', label: 'One stock' }] },
      '3': { label: 'Quantity', kind: 'number' },
    },
    optionFields: { '2': { label: 'Option SKU' } },
    optionStock: { label: 'Units on hand' },
  },
  references: { categoryEncoding: 'ids', categories: [{ id: '158198', name: 'Bedding' }] },
};

const site = siteInfoOf(HARBOUR);
const settings = settingsForSite('de-DE', site);
const fields = fieldsForSite(site);

describe('the fields of a site with a profile', () => {
  it('grids show only the site’s currencies and the tiers it does not hide', () => {
    expect(gridOf(fields, 'product')).toMatchObject({
      currencies: ['aud', 'nzd'],
      columns: [
        { tier: 1, index: 0, label: 'Price' },
        { tier: 2, index: 1, label: 'Display price (RRP)' },
      ],
    });
    expect(gridOf(fields, 'option').currencies).toEqual(['aud', 'nzd']);
    expect(pathsOfStep(fields, 'pricing')).toEqual([
      'inventory.0',
      'inventory.1',
      'inventory.2',
      'prices.aud.0',
      'prices.aud.1',
      'prices.nzd.0',
      'prices.nzd.1',
    ]);
  });

  it('names the numbered fields as the profile does, with their kinds', () => {
    const byWire = new Map(fields.product.map((def) => [def.wire, def]));
    expect(byWire.get('module_field_14/product_1')).toMatchObject({ label: 'Description', kind: 'multiline' });
    expect(byWire.get('module_field_14/product_3')).toMatchObject({
      label: 'Product code (SKU)',
      hint: 'Unique per product',
      kind: 'text',
    });
    expect(byWire.get('module_field_14/product_2')).toMatchObject({ label: 'Product field 2' });
    expect(byWire.get('module_field_14/product/inventory/1')).toMatchObject({
      kind: 'choice',
      options: [{ value: 'global', label: 'One stock' }],
    });
    expect(byWire.get('module_field_14/product/inventory/3')).toMatchObject({ label: 'Quantity', kind: 'integer' });
    expect(describePath(fields, 'attributes.0.options.1.fields.0')).toBe('Attribute 1 › Option 2 › Option SKU');
    expect(describePath(fields, 'attributes.0.options.1.inventory')).toBe('Attribute 1 › Option 2 › Units on hand');
  });

  it('never sends a currency or tier the site does not use, and sends prices at its precision and categories as ids', () => {
    const form: ProductForm = { ...emptyProduct(), name: 'Throw', categories: ['158198'] };
    form.prices.aud = ['19,99', '25', '', ''];
    form.prices.usd = ['5', '', '', ''];
    form.prices.nzd = ['', '', '7', '8'];
    form.attributes = [{ ...emptyAttribute(), name: 'Size', options: [{ ...emptyOption(), name: 'L' }] }];
    form.attributes[0]!.options[0]!.prices.eur = ['1', ''];
    const { body, problems } = encodeProduct(form, settings);
    expect(problems).toEqual([]);
    expect(body).toEqual({
      name: 'Throw',
      enabled: 'true',
      category_array: ['158198'],
      'module_field_14/product/price/aud/1': '199900',
      'module_field_14/product/price/aud/2': '250000',
      attributes: [{ name: 'Size', enabled: 'true', items: [{ name: 'L', enabled: 'true' }] }],
    });
    expect(validateProduct(body)).toMatchObject({ ok: true });
    // Read back, the ids land in the same field.
    expect(decodeProduct(body, 4).categories).toEqual(['158198']);
  });

  it('maps a platform error on a category given as an id to the categories field', () => {
    expect(wireFieldToFormPath(fields, 'category_array[0]')).toBe('categories');
    const check = validateProduct({ name: 'x', category_array: ['beds'] });
    expect(check).toMatchObject({ ok: false, status: 422, details: [{ field: 'category_array[0]' }] });
  });

  it('is the registry as it is without a profile', () => {
    expect(gridOf(fieldsForSite(undefined), 'product').currencies).toHaveLength(6);
  });
});

describe('a new product on a site', () => {
  it('starts from the site’s defaults', () => {
    const product = newProductFor({ defaults: { enabled: false, weighting: '10', categories: ['158198'] } });
    expect(product).toMatchObject({ enabled: false, weighting: '10', categories: ['158198'], name: '' });
    expect(newProductFor(undefined)).toEqual(emptyProduct());
  });

  it('offers the site’s categories by name, each under its parents', () => {
    const named = fieldsForSite(
      siteInfoOf({ ...HARBOUR, references: { categories: [{ id: '1', name: 'Bedding', children: [{ id: '2', name: 'Throws' }] }] } }),
    ).product.find((def) => def.wire === 'category_array');
    expect(named).toMatchObject({
      kind: 'references',
      encoding: 'objects',
      named: [
        { value: '1', label: 'Bedding' },
        { value: '2', label: 'Bedding › Throws' },
      ],
    });
  });
});
