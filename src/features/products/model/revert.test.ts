import { describe, expect, it } from 'vitest';
import { validateProductUpdate, type ProductRecord, type WireProductUpdate } from '@/contract/products';
import { validateProduct } from '@/contract/rules';
import { settingsForLocale } from './codec';
import { openForEdit } from './open-for-edit';
import { diffProduct } from './product-diff';
import { emptyAttribute, emptyOption } from './product-form';
import { revertBody } from './revert';

const USD1 = 'module_field_14/product/price/usd/1';
const FIELD3 = 'module_field_14/product_3';
const EN = settingsForLocale('en-US');

const BEFORE: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  enabled: 'true',
  [USD1]: '1999',
  [FIELD3]: 'SKU-1',
  updated_at: '1767225600',
  attributes: [{ id: '31', name: 'Colour', enabled: 'true', items: [{ id: '77', name: 'Sand', enabled: 'true' }] }],
};

/** The update as the editor made it: a price, the SKU cleared, an option renamed, a new option and a new attribute. */
function update(): { before: ProductRecord; body: WireProductUpdate } {
  const form = openForEdit(BEFORE, [], EN).form;
  form.prices.usd[0] = '24.00';
  form.fields[2] = '';
  form.attributes[0]!.options[0]!.name = 'Sandstone';
  form.attributes[0]!.options.push({ ...emptyOption(), name: 'Ink' });
  form.attributes.push({ ...emptyAttribute(), name: 'Size', options: [{ ...emptyOption(), name: 'Large' }] });
  const { body } = diffProduct(BEFORE, form, EN);
  if (!body) throw new Error('the edit changes nothing');
  return { before: BEFORE, body };
}

/** The product as the platform holds it after that update (ids given to what it created). */
const AFTER: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  enabled: 'true',
  [USD1]: '2400',
  updated_at: '1767229200',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '77', name: 'Sandstone', enabled: 'true' },
        { id: '90', name: 'Ink', enabled: 'true' },
      ],
    },
    { id: '91', name: 'Size', enabled: 'true', items: [{ id: '92', name: 'Large', enabled: 'true' }] },
  ],
};

describe('revertBody', () => {
  it('puts back exactly what the update wrote, and switches off what it created', () => {
    const plan = revertBody(update(), AFTER, EN);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.body).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      [FIELD3]: 'SKU-1',
      [USD1]: '1999',
      attributes: [
        {
          id: '31',
          name: 'Colour',
          items: [
            { id: '77', name: 'Sand' },
            { id: '90', name: 'Ink', enabled: 'false' },
          ],
        },
        { id: '91', name: 'Size', enabled: 'false' },
      ],
    });
    expect(validateProductUpdate(plan.body, validateProduct)).toMatchObject({ ok: true });
    expect(plan.changes.map((c) => [c.kind, c.label, c.before, c.after])).toEqual([
      ['changed', 'Product field 3', '', 'SKU-1'],
      ['changed', 'USD, Price', '$24.00', '$19.99'],
      ['changed', 'Attribute “Colour” › Option “Sandstone” › Option name', 'Sandstone', 'Sand'],
      ['disabled', 'Attribute “Colour” › Option “Ink” › Option enabled', 'Yes', 'No'],
      ['disabled', 'Attribute “Size” › Attribute enabled', 'Yes', 'No'],
    ]);
  });

  it('leaves alone what changed elsewhere since, and what the update sent without changing', () => {
    const later: ProductRecord = { ...structuredClone(AFTER), name: 'Linen throw (large)', weighting: '3' };
    const plan = revertBody(update(), later, EN);
    expect(plan).toMatchObject({ ok: true, body: { name: 'Linen throw (large)', enabled: 'true' } });
    expect(plan.ok && plan.body).not.toHaveProperty('weighting');
  });

  it('refuses when a value the update wrote has changed since, naming it with its value now', () => {
    const later = structuredClone(AFTER);
    later[USD1] = '2600';
    later.attributes![0]!.items![0]!.name = 'Desert';
    expect(revertBody(update(), later, EN)).toEqual({
      ok: false,
      changedSince: [
        { field: 'USD, Price', wire: USD1, wrote: '$24.00', now: '$26.00', wroteWire: '2400', nowWire: '2600' },
        {
          field: 'Attribute “Colour” › Option “Desert” › Option name',
          wire: 'name',
          wrote: 'Sandstone',
          now: 'Desert',
          wroteWire: 'Sandstone',
          nowWire: 'Desert',
        },
      ],
    });
  });

  it('refuses when an item the update created is no longer there as it wrote it', () => {
    const later = structuredClone(AFTER);
    later.attributes![1]!.name = 'Sizes';
    later.attributes![0]!.items![1]!.enabled = 'false';
    const plan = revertBody(update(), later, EN);
    expect(plan.ok).toBe(false);
    expect(!plan.ok && plan.changedSince.map((c) => [c.field, c.wrote, c.now])).toEqual([
      ['Attribute “Colour” › Option “Ink” › Option enabled', 'Yes', 'No'],
      ['Attribute “Size”', 'Size', 'no longer there under this name'],
    ]);
  });

  it('an update that changed nothing has nothing to revert', () => {
    expect(revertBody({ before: BEFORE, body: { name: 'Linen throw', enabled: 'true' } }, BEFORE, EN)).toEqual({
      ok: true,
      body: null,
      changes: [],
    });
  });

  it('reverting a revert restores the update', () => {
    const first = update();
    const plan = revertBody(first, AFTER, EN);
    if (!plan.ok || !plan.body) throw new Error('no revert');
    const reverted: ProductRecord = {
      ...BEFORE,
      attributes: [
        {
          id: '31',
          name: 'Colour',
          enabled: 'true',
          items: [
            { id: '77', name: 'Sand', enabled: 'true' },
            { id: '90', name: 'Ink', enabled: 'false' },
          ],
        },
        { id: '91', name: 'Size', enabled: 'false', items: [{ id: '92', name: 'Large', enabled: 'true' }] },
      ],
    };
    const again = revertBody({ before: AFTER, body: plan.body }, reverted, EN);
    expect(again).toMatchObject({
      ok: true,
      body: {
        [USD1]: '2400',
        [FIELD3]: '',
        attributes: [
          {
            id: '31',
            items: [
              { id: '77', name: 'Sandstone' },
              { id: '90', enabled: 'true' },
            ],
          },
          { id: '91', enabled: 'true' },
        ],
      },
    });
  });
});
