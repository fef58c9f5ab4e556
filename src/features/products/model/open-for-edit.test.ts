import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProductRecord, type ProductRecord } from '@/contract/products';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { settingsForLocale, settingsForSite } from './codec';
import { openForEdit } from './open-for-edit';

let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const USD1 = 'module_field_14/product/price/usd/1';
const OPTION_USD1 = 'module_field_14/product_attribute_option/price/usd/1';
const EN = settingsForLocale('en-US');

const RECORD: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  slug: 'linen-throw',
  enabled: 'true',
  release_date: '1767225600',
  [USD1]: '1999',
  'module_field_14/product_1': 'Soft linen\nwoven in Lithuania',
  created_at: '1767225600',
  attributes: [{ id: '31', name: 'Colour', items: [{ id: '77', name: 'Sand', [OPTION_USD1]: '150' }] }],
};

/** The record as the platform's answer text, read as the browser reads it. */
function read(json: unknown) {
  const reading = readProductRecord(json);
  if (!reading.ok) throw new Error(reading.problem);
  return reading;
}

describe('openForEdit', () => {
  it('fills the editor exactly: prices in the site’s decimals, dates in the person’s zone, ids kept', () => {
    const { form, readOnly } = openForEdit(RECORD, [], EN);
    expect(readOnly).toEqual([]);
    expect(form).toMatchObject({
      name: 'Linen throw',
      slug: 'linen-throw',
      slugEdited: true,
      enabled: true,
      // 2026-01-01 00:00 UTC in New York.
      releaseAt: '2025-12-31 19:00:00',
      fields: ['Soft linen\nwoven in Lithuania', '', '', '', ''],
      attributes: [{ id: '31', name: 'Colour', enabled: true, options: [{ id: '77', name: 'Sand', enabled: true }] }],
    });
    expect(form.prices.usd[0]).toBe('19.99');
    expect(form.attributes[0]?.options[0]?.prices.usd[0]).toBe('1.50');
    const site: SiteConfig = { id: 's', name: 'S', platform: { sandbox: true, siteId: '1' }, money: { decimals: 4 } };
    expect(openForEdit({ ...RECORD, [USD1]: '199900' }, [], settingsForSite('de-DE', siteInfoOf(site))).form.prices.usd[0]).toBe('19.9900');
  });

  it('a field the editor does not know makes the product read-only, named in words', () => {
    const { record, unknown } = read({
      ...RECORD,
      colour: 'blue',
      attributes: [{ ...RECORD.attributes![0], items: [{ id: '77', name: 'Sand', swatch: '#c2b280' }] }],
    });
    expect(openForEdit(record, unknown, EN).readOnly).toEqual([
      { field: 'colour', why: 'a field site-admin does not know: colour' },
      { field: 'Attribute “Colour” › Option “Sand” › swatch', why: 'a field site-admin does not know: swatch' },
    ]);
  });

  it('a price that is not whole minor units is named, not rounded on save', () => {
    const { readOnly, form } = openForEdit({ ...RECORD, [USD1]: '12.345' }, [], EN);
    expect(form.prices.usd[0]).toBe('12.345');
    expect(readOnly).toEqual([
      { field: 'USD, Price', why: 'a value the editor cannot show exactly: “12.345” as a price with 2 decimals (whole minor units)' },
    ]);
  });

  it('a known field with a value of the wrong type is named with why', () => {
    const { record, unknown } = read({ ...RECORD, enabled: true });
    const { readOnly } = openForEdit(record, unknown, EN);
    expect(readOnly).toHaveLength(1);
    expect(readOnly[0]).toMatchObject({
      field: 'Enabled',
      why: expect.stringMatching(/^a value the editor cannot show exactly: /) as string,
    });
  });

  it('text the editor would trim on save, and a date it cannot show, are named', () => {
    const { readOnly } = openForEdit({ ...RECORD, name: ' Linen throw ', expiry_date: 'soon' }, [], EN);
    expect(readOnly).toEqual([
      { field: 'Name', why: 'a value the editor cannot show exactly: “ Linen throw ” would be saved as “Linen throw”' },
      { field: 'Expiry date', why: 'a value the editor cannot show exactly: “soon” as a date and time in America/New_York' },
    ]);
  });

  it('a field the site hides is kept in the form, not compared, and never a reason', () => {
    const site: SiteConfig = { id: 's', name: 'S', platform: { sandbox: true, siteId: '1' }, money: { currencies: ['eur'] } };
    const { form, readOnly } = openForEdit({ ...RECORD, [USD1]: '12.345' }, [], settingsForSite('en-GB', siteInfoOf(site)));
    expect(readOnly).toEqual([]);
    expect(form.prices.usd[0]).toBe('12.345');
  });

  it('"" and absent are the same, and an absent switch is on', () => {
    const { readOnly, form } = openForEdit({ id: '5', name: 'Mug', slug: '', attributes: [{ id: '6', name: 'Size' }] }, [], EN);
    expect(readOnly).toEqual([]);
    expect(form.enabled).toBe(true);
  });
});
