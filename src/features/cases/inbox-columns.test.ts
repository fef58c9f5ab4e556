import { describe, expect, it } from 'vitest';
import { cellText, inboxColumns } from './inbox-columns';

const claim = {
  id: '50001',
  created_at: 1777600000,
  properties: {
    name: 'Ana Silva',
    email: 'ana.silva@example.com',
    user_id: '0',
    order_id: '871234',
    form_field_21_1: 'Linen throw, sage',
    form_field_21_2: 1760000000,
    form_field_21_3: 'The seam came apart.',
    form_field_21_6: 'Refund',
  },
};

describe('inboxColumns', () => {
  it('takes the profile’s columns, in its order, with its labels', () => {
    const profile = { fields: { form_field_21_6: 'Resolution wanted' }, inboxColumns: ['form_field_21_6', 'email'] };
    expect(inboxColumns(profile, [claim])).toEqual([
      { key: 'form_field_21_6', label: 'Resolution wanted' },
      { key: 'email', label: 'Email' },
    ]);
  });

  it('by default shows the name, the e-mail and the first text field, in the profile’s order, never ids or dates', () => {
    const profile = { fields: { form_field_21_2: 'Purchase date', form_field_21_3: 'Fault', form_field_21_1: 'Product' } };
    expect(inboxColumns(profile, [claim]).map((column) => column.label)).toEqual(['Name', 'Email', 'Fault']);
    expect(inboxColumns(undefined, [{ id: '1', properties: { order_id: '9', message: 'Hello' } }])).toEqual([
      { key: 'message', label: 'Message' },
    ]);
    expect(inboxColumns(undefined, [])).toEqual([]);
  });

  it('writes lists and numbers as text', () => {
    expect(cellText(['a', 'b'])).toBe('a, b');
    expect(cellText(42.5)).toBe('42.5');
    expect(cellText({ street: 'x' })).toBe('');
  });
});
