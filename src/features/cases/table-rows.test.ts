import { describe, expect, it } from 'vitest';
import { caseSections } from './case-fields';
import { estimateHeight, tableRows } from './table-rows';

const record = { name: 'form_3', id: '7', properties: { email: 'a@example.com', note: 'one\ntwo\nthree' } };

describe('tableRows', () => {
  it('lists every field in order, each section after its title when titles are shown', () => {
    const rows = tableRows(caseSections(record), true);
    expect(rows.map((row) => (row.kind === 'title' ? `# ${row.section.title}` : row.row.path))).toEqual([
      '# Submitted fields',
      'properties.email',
      'properties.note',
      '# Record',
      'name',
      'id',
    ]);
    expect(tableRows(caseSections(record), false).every((row) => row.kind === 'field')).toBe(true);
  });

  it('gives every row a key of its own, even a field named like a title', () => {
    const rows = tableRows(caseSections({ 'title:properties': 1, properties: { a: 1 } }), true);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });
});

describe('estimateHeight', () => {
  it('grows with the lines of a text, up to the lines a cut value shows', () => {
    const one = estimateHeight('short');
    expect(estimateHeight('one\ntwo\nthree')).toBeGreaterThan(one);
    expect(estimateHeight('x'.repeat(400))).toBeGreaterThan(one);
    expect(estimateHeight('line\n'.repeat(10_000))).toBe(estimateHeight('line\n'.repeat(20)));
  });

  it('takes a second line for a name too long for one', () => {
    expect(estimateHeight('short', 'Form field 123 form_field_3_123')).toBeGreaterThan(estimateHeight('short', 'Email email'));
  });

  it('counts the entries of a small object, which starts open, and not those of a large one', () => {
    const small = estimateHeight({ street: '1 Cuba Street', city: 'Wellington' });
    expect(small).toBeGreaterThan(estimateHeight({ street: '1 Cuba Street' }));
    expect(estimateHeight(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])))).toBe(estimateHeight(true));
    expect(estimateHeight([{ sku: 1 }, { sku: 2 }])).toBeGreaterThan(estimateHeight(['a', 'b']));
  });
});
