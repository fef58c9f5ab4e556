import { describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCT_RECORD_SHAPE, type ProductRecord } from '@/contract/products';
import { settingsForLocale, settingsForSite } from '@/features/products/model/codec';
import { applyUpdate, readRecordedUpdate, updateChanges } from './update-diff';

const USD1 = 'module_field_14/product/price/usd/1';
const EUR1 = 'module_field_14/product/price/eur/1';
const STOCK = 'module_field_14/product_attribute_option/inventory/1';

const BEFORE: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  enabled: 'true',
  slug: 'linen-throw',
  [USD1]: '1999',
  expiry_date: '1798761600',
  updated_at: '1767225600',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '77', name: 'Sand', enabled: 'true', [STOCK]: '4' },
        { id: '78', name: 'Ink', enabled: 'true' },
      ],
    },
  ],
};

/** A body as the editor sends it: a price, the expiry cleared, an option renamed, one switched off, one added. */
const BODY = {
  name: 'Linen throw',
  enabled: 'true',
  [USD1]: '2450',
  expiry_date: '',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      items: [
        { id: '77', name: 'Sandstone' },
        { id: '78', name: 'Ink', enabled: 'false' },
        { name: 'Moss', [STOCK]: '12' },
      ],
    },
  ],
};

const detail = (body: unknown = BODY, before: unknown = BEFORE, extra: Record<string, unknown> = {}) => ({
  product: '1042',
  body: JSON.stringify(body),
  before: JSON.stringify(before),
  ...extra,
});

describe('an update from the activity record', () => {
  it('reads the entry’s detail, keeps the body’s text as sent, and the update it reverts', () => {
    const read = readRecordedUpdate(detail(BODY, BEFORE, { reverts: 17 }), DEFAULT_PRODUCT_RECORD_SHAPE);
    expect(read.ok && read.update).toMatchObject({ product: '1042', reverts: 17, bodyText: JSON.stringify(BODY) });
    expect(read.ok && read.update.before.attributes?.[0]?.items?.[1]).toEqual({ id: '78', name: 'Ink', enabled: 'true' });
  });

  it('reads a site whose platform writes ids and options under other keys', () => {
    const shape = { id: 'uid', options: 'values' };
    const before = {
      uid: 1042,
      name: 'Mug',
      enabled: 'true',
      attributes: [{ uid: '31', name: 'Size', values: [{ uid: '77', name: 'S' }] }],
    };
    const body = { name: 'Mug', enabled: 'true', attributes: [{ uid: '31', name: 'Size', values: [{ uid: '77', name: 'Small' }] }] };
    const read = readRecordedUpdate(detail(body, before), shape);
    if (!read.ok) throw new Error(read.problem);
    expect(read.update.body.attributes).toEqual([{ id: '31', name: 'Size', items: [{ id: '77', name: 'Small' }] }]);
    expect(updateChanges(read.update, settingsForLocale('en-US')).map((change) => [change.label, change.before, change.after])).toEqual([
      ['Attribute “Size” › Option “S” › Option name', 'S', 'Small'],
    ]);
  });

  it('says why an entry cannot be shown as a diff', () => {
    const shape = DEFAULT_PRODUCT_RECORD_SHAPE;
    expect(readRecordedUpdate(null, shape)).toEqual({ ok: false, problem: 'the entry kept no detail' });
    expect(readRecordedUpdate({ product: '1042', body: '{}' }, shape)).toEqual({
      ok: false,
      problem: 'the entry kept no product as it was before',
    });
    expect(readRecordedUpdate({ ...detail(), body: '{"name":' }, shape)).toEqual({ ok: false, problem: 'what the entry kept is not JSON' });
    expect(readRecordedUpdate(detail(BODY, { name: 'no id' }), shape)).toMatchObject({
      ok: false,
      problem: /product before cannot be read/,
    });
    expect(readRecordedUpdate(detail({ name: 'x', enabled: 'true', colour: 'red' }), shape)).toEqual({
      ok: false,
      problem: 'the body sent is not an update of a product',
    });
  });

  it('applies a body as a PUT does: given fields overwrite, "" clears, items by id, new ones added, nothing deleted', () => {
    const after = applyUpdate(BEFORE, BODY);
    expect(after[USD1]).toBe('2450');
    expect(after).not.toHaveProperty('expiry_date');
    expect(after.slug).toBe('linen-throw');
    expect(after.attributes?.[0]?.items).toEqual([
      { id: '77', name: 'Sandstone', enabled: 'true', [STOCK]: '4' },
      { id: '78', name: 'Ink', enabled: 'false' },
      { name: 'Moss', [STOCK]: '12' },
    ]);
    // The record it came from is left as it was.
    expect(BEFORE.attributes?.[0]?.items?.[0]?.name).toBe('Sand');
  });

  it('shows the change field by field, in the site’s labels, prices in its decimals and dates in words', () => {
    const site = {
      currencies: ['usd' as const],
      decimals: 2 as const,
      labels: { priceTiers: { '1': { label: 'Shelf price' } }, optionStock: { label: 'On hand' } },
    };
    const changes = updateChanges({ before: BEFORE, body: BODY }, settingsForSite('en-US', site));
    const rows = changes.map((change) => [change.kind, change.label, change.before, change.after]);
    expect(rows).toEqual([
      // In the time zone of the browser, as the editor shows dates.
      [
        'changed',
        'Expiry date',
        new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(1_798_761_600_000)),
        '',
      ],
      ['changed', 'USD, Shelf price', '$19.99', '$24.50'],
      ['changed', 'Attribute “Colour” › Option “Sand” › Option name', 'Sand', 'Sandstone'],
      ['disabled', 'Attribute “Colour” › Option “Ink” › Option enabled', 'Yes', 'No'],
      ['added', 'Attribute “Colour” › Option “Moss” › Option name', '', 'Moss'],
      ['added', 'Attribute “Colour” › Option “Moss” › On hand', '', '12'],
    ]);
  });

  it('shows a field the site hides when an update changed it (here a currency the site does not sell in)', () => {
    const changes = updateChanges(
      { before: BEFORE, body: { name: 'Linen throw', enabled: 'true', [EUR1]: '2100' } },
      settingsForSite('de-DE', { currencies: ['usd'], decimals: 4 }),
    );
    expect(changes.map((change) => [change.label, change.before, change.after])).toEqual([
      ['EUR, Price', '', expect.stringMatching(/^0,2100\s€$/) as unknown],
    ]);
  });
});
