import { describe, expect, it } from 'vitest';
import { caseSections, countRows, filterSections, humaniseKey } from './case-fields';

describe('humaniseKey', () => {
  it.each([
    ['form_field_3_2', 'Form field 2'],
    ['form_field_12_14', 'Form field 14'],
    ['order_id', 'Order ID'],
    ['user_id', 'User ID'],
    ['form_name', 'Form name'],
    ['created_at', 'Created at'],
    ['createdAt', 'Created at'],
    ['imageURL', 'Image URL'],
    ['module_field_14/product_1', 'Module field 14 product 1'],
    ['email', 'Email'],
    ['0', 'Item 1'],
    ['', '(empty key)'],
    ['日本語', '日本語'],
    ['prénom_client', 'Prénom client'],
    ['HTMLBody', 'HTML body'],
    ['<b>x</b>', 'B x b'],
  ])('%j → %j', (key, label) => {
    expect(humaniseKey(key)).toBe(label);
  });
});

const documented = {
  id: '48217',
  name: 'form_3',
  form_name: 'Contact us',
  created_at: 1761955200,
  properties: { name: 'Amelia Nguyen', email: 'amelia@example.com', form_field_3_3: ['Orders', 'Returns'] },
};

describe('caseSections', () => {
  it('puts the submitted fields first, then the rest of the record', () => {
    const sections = caseSections(documented);
    expect(sections.map((s) => s.id)).toEqual(['properties', 'record']);
    expect(sections[0]?.rows.map((r) => r.path)).toEqual(['properties.name', 'properties.email', 'properties.form_field_3_3']);
    expect(sections[1]?.rows.map((r) => r.key)).toEqual(['id', 'name', 'form_name', 'created_at']);
    expect(countRows(sections)).toBe(7);
  });

  it('lists every key of an unknown shape, and nothing for {}', () => {
    expect(caseSections({ a: 1, nested: { deep: [1] } })).toMatchObject([{ id: 'fields', rows: [{ key: 'a' }, { key: 'nested' }] }]);
    expect(caseSections({})).toEqual([{ id: 'fields', title: 'Fields', rows: [] }]);
  });

  it('keeps properties as one field when it is not a non-empty object', () => {
    expect(caseSections({ properties: [] })[0]?.rows.map((r) => r.key)).toEqual(['properties']);
    expect(caseSections({ properties: {} })[0]?.rows.map((r) => r.key)).toEqual(['properties']);
    expect(caseSections({ properties: 'x' })[0]?.rows.map((r) => r.key)).toEqual(['properties']);
  });
});

describe('filterSections', () => {
  const sections = caseSections(documented);
  const keys = (query: string) => filterSections(sections, query).flatMap((s) => s.rows.map((r) => r.path));

  it('matches the key, the label or the value, ignoring case, every word', () => {
    expect(keys('')).toHaveLength(7);
    expect(keys('form_field_3_3')).toEqual(['properties.form_field_3_3']);
    expect(keys('FORM FIELD 3')).toEqual(['properties.form_field_3_3']);
    expect(keys('returns')).toEqual(['properties.form_field_3_3']);
    expect(keys('amelia')).toEqual(['properties.name', 'properties.email']);
    expect(keys('amelia example')).toEqual(['properties.email']);
    expect(keys('contact')).toEqual(['form_name']);
    expect(keys('nothing-like-this')).toEqual([]);
  });

  it('finds epoch dates by their ISO date and empties by their description', () => {
    expect(keys('2025-11-01')).toEqual(['created_at']);
    const withEmpty = caseSections({ a: '', b: null, c: 'x' });
    expect(filterSections(withEmpty, 'empty').flatMap((s) => s.rows.map((r) => r.key))).toEqual(['a']);
    expect(filterSections(withEmpty, 'null').flatMap((s) => s.rows.map((r) => r.key))).toEqual(['b']);
  });

  it('drops sections left without rows', () => {
    expect(filterSections(sections, 'form_name').map((s) => s.id)).toEqual(['record']);
  });
});
