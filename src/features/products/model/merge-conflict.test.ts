import { describe, expect, it } from 'vitest';
import type { ProductRecord } from '@/contract/products';
import { settingsForLocale } from './codec';
import { applyChoices, mergeConflict } from './merge-conflict';
import { openForEdit } from './open-for-edit';
import { diffProduct } from './product-diff';
import { emptyOption } from './product-form';

const USD1 = 'module_field_14/product/price/usd/1';
const EN = settingsForLocale('en-GB');

const BASE: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  enabled: 'true',
  weighting: '5',
  [USD1]: '1999',
  updated_at: '1767225600',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '77', name: 'Sand', enabled: 'true' },
        { id: '78', name: 'Olive', enabled: 'true' },
      ],
    },
  ],
};

/** A colleague, between open and save: the price, an option's name and the weighting. */
const THEIRS: ProductRecord = {
  ...structuredClone(BASE),
  [USD1]: '2400',
  weighting: '9',
  updated_at: '1767229200',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '77', name: 'Sand', enabled: 'true' },
        { id: '78', name: 'Olive drab', enabled: 'true' },
        { id: '80', name: 'Rust', enabled: 'true' },
      ],
    },
  ],
};

/** Mine, from the same base: the price too, the name, Sand removed and Ink added. */
function myForm() {
  const form = openForEdit(BASE, [], EN).form;
  form.prices.usd[0] = '21.00';
  form.name = 'Linen throw, large';
  form.attributes[0]!.options.splice(0, 1);
  form.attributes[0]!.options.push({ ...emptyOption(), name: 'Ink' });
  return form;
}

describe('mergeConflict', () => {
  it('lists what they changed beside what I changed, and which both changed', () => {
    const conflict = mergeConflict(BASE, THEIRS, myForm(), EN);
    const rows = conflict.fields.map((f) => [f.label, f.base, f.theirs, f.mine, f.theirsChanged, f.mineChanged, f.conflict]);
    expect(rows).toEqual([
      ['Name', 'Linen throw', 'Linen throw', 'Linen throw, large', false, true, false],
      ['USD, Price', 'US$19.99', 'US$24.00', 'US$21.00', true, true, true],
      ['Attribute “Colour” › Option “Ink” › Option name', '', '', 'Ink', false, true, false],
      ['Attribute “Colour” › Option “Ink” › Option enabled', '', '', 'Yes', false, true, false],
      ['Attribute “Colour” › Option “Sand” › Option enabled', 'Yes', 'Yes', 'No', false, true, false],
      ['Weighting', '5', '9', '5', true, false, false],
      ['Attribute “Colour” › Option “Olive” › Option name', 'Olive', 'Olive drab', 'Olive', true, false, false],
      ['Attribute “Colour” › Option “Rust” › Option name', '', 'Rust', '', true, false, false],
      ['Attribute “Colour” › Option “Rust” › Option enabled', '', 'Yes', '', true, false, false],
    ]);
    expect(conflict.fields.find((f) => f.wire === USD1)).toMatchObject({ baseWire: '1999', theirsWire: '2400', mineWire: '2100' });
  });

  it('both changing a field to the same value is not a conflict', () => {
    const form = openForEdit(BASE, [], EN).form;
    form.prices.usd[0] = '24';
    const [price] = mergeConflict(BASE, THEIRS, form, EN).fields.filter((f) => f.theirsChanged && f.mineChanged);
    expect(price).toMatchObject({ wire: USD1, conflict: false });
  });
});

describe('applyChoices', () => {
  it('builds on theirs: taking theirs for the price keeps every other change of mine, and saving diffs against theirs', () => {
    const conflict = mergeConflict(BASE, THEIRS, myForm(), EN);
    const priceKey = conflict.fields.find((f) => f.wire === USD1)!.key;
    const { base, form } = applyChoices(conflict, { [priceKey]: 'theirs' }, EN);
    expect(base).toBe(THEIRS);
    const { changes, body } = diffProduct(base, form, EN);
    expect(changes.map((c) => [c.kind, c.label, c.after])).toEqual([
      ['changed', 'Name', 'Linen throw, large'],
      ['added', 'Attribute “Colour” › Option “Ink” › Option name', 'Ink'],
      ['added', 'Attribute “Colour” › Option “Ink” › Option enabled', 'Yes'],
      ['disabled', 'Attribute “Colour” › Option “Sand” › Option enabled', 'No'],
    ]);
    // Their option name, their new option and their weighting stay as they left them.
    expect(body).toEqual({
      name: 'Linen throw, large',
      enabled: 'true',
      attributes: [
        {
          id: '31',
          name: 'Colour',
          items: [
            { name: 'Ink', enabled: 'true' },
            { id: '77', name: 'Sand', enabled: 'false' },
          ],
        },
      ],
    });
  });

  it('keeping mine for a field both changed sends mine; mine for a field only they changed puts it back', () => {
    const conflict = mergeConflict(BASE, THEIRS, myForm(), EN);
    const key = (wire: string, label?: string) => conflict.fields.find((f) => f.wire === wire && (!label || f.label.includes(label)))!.key;
    const { form } = applyChoices(conflict, { [key(USD1)]: 'mine', [key('weighting')]: 'mine', [key('name', 'Ink')]: 'theirs' }, EN);
    const { body } = diffProduct(THEIRS, form, EN);
    expect(body).toEqual({
      name: 'Linen throw, large',
      enabled: 'true',
      weighting: '5',
      [USD1]: '2100',
      attributes: [{ id: '31', name: 'Colour', items: [{ id: '77', name: 'Sand', enabled: 'false' }] }],
    });
  });

  it('with no choices at all: mine where I changed, theirs elsewhere', () => {
    const conflict = mergeConflict(BASE, THEIRS, myForm(), EN);
    const { form } = applyChoices(conflict, {}, EN);
    expect(form.prices.usd[0]).toBe('21.00');
    expect(form.weighting).toBe('9');
    expect(form.attributes[0]!.options.map((o) => o.name)).toEqual(['Olive drab', 'Rust', 'Ink']);
  });
});
