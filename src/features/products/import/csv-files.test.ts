import { describe, expect, it } from 'vitest';
import { BASE_FIELDS } from '../model/registry';
import { importColumns, templateHeader } from './columns';
import { delimiterFor, reportCsv, templateCsv } from './csv-files';
import { parseSheet } from './parse';

describe('templateCsv', () => {
  it('has every column as “Label [key]” and one example product of two option rows, in the person’s notation', () => {
    const de = parseSheet(templateCsv(BASE_FIELDS, 'de-DE'));
    expect(de.delimiter).toBe(';');
    expect(de.headers).toEqual(importColumns(BASE_FIELDS).map(templateHeader));
    expect(de.headers).toContain('USD, Price [module_field_14/product/price/usd/1]');
    expect(de.rows).toHaveLength(2);
    const price = de.headers.indexOf('EUR, Price [module_field_14/product/price/eur/1]');
    expect(de.rows[0]?.[price]).toBe('49,95');
    expect(de.rows[1]?.[de.headers.indexOf('Name [name]')]).toBe('');
    // Each option row has its stock.
    const stock = de.headers.findIndex((h) => h.startsWith('Stock ['));
    expect(stock).toBeGreaterThan(-1);
    expect(de.rows.map((row) => row[stock])).toEqual(['12', '4']);
    expect(delimiterFor('en-US')).toBe(',');
  });
});

describe('reportCsv', () => {
  it('puts each row’s status, message and answer before the file’s own columns, quoting what needs it', () => {
    const text = reportCsv(
      ['Name', 'Option name'],
      [
        ['Throw', 'S'],
        ['', 'L, long'],
        ['Mug', ''],
      ],
      new Map([
        [0, { status: 'created', message: '', answer: '{"id":7}' }],
        [1, { status: 'created', message: '', answer: '' }],
        [2, { status: 'rejected', message: 'slug: Slug is already used', answer: '' }],
      ]),
      ',',
    );
    const back = parseSheet(text);
    expect(back.headers).toEqual(['Import status', 'Import message', 'Platform answer', 'Name', 'Option name']);
    expect(back.rows).toEqual([
      ['created', '', '{"id":7}', 'Throw', 'S'],
      ['created', '', '', '', 'L, long'],
      ['rejected', 'slug: Slug is already used', '', 'Mug', ''],
    ]);
  });
});
