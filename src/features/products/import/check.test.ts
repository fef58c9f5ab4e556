import { describe, expect, it } from 'vitest';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { settingsForLocale, settingsForSite } from '../model/codec';
import { MONEY_REASONS } from '../model/money';
import { emptyOption, emptyProduct } from '../model/product-form';
import { mappingOf, matchColumns } from './columns';
import { checkImport, checkProduct, EXCEL_ERROR_REASON, placeDetails, readerOf, UNREADABLE_REASON } from './check';
import { templateCsv } from './csv-files';
import { parseSheet } from './parse';
import { formOfImported, replaceProduct } from './round-trip';
import { BOOLEAN_REASON } from './to-form';

const DE = settingsForLocale('de-DE');

/** A file as a German spreadsheet saves it: semicolons, decimal commas, a BOM, a quoted line break. */
const GERMAN_FILE = [
  '\uFEFFName;Slug;Enabled;USD, Price;Attribute name;Option name;USD, Added to price;Stock;Release date',
  'Leinendecke;leinendecke;ja;1.299,95;Größe;Klein;0;12;01.03.2026',
  ';;;;;Groß;10,50;4;',
  'Becher;becher;nein;12,5;;;;;',
  '"Kissen ""Sand""";kissen;true;1,299;Farbe;"Sand\nhell";;x;2026-02-30',
  'Tuch;leinendecke;vielleicht;5;;;;;',
].join('\r\n');

function check(text: string, settings = DE, created: string[] = []) {
  const sheet = parseSheet(text);
  const mapping = mappingOf(matchColumns(sheet.headers, settings.fields));
  return { sheet, mapping, result: checkImport(sheet.rows, mapping, {}, { settings, site: undefined, createdSlugs: new Set(created) }) };
}

describe('checkImport', () => {
  it('stops a cell holding text nobody wrote (U+FFFD, or an Excel error) on that cell, in any mapped column', () => {
    const { result } = check('Name;Slug;Product field 1\nCaf\uFFFD;cafe;Cr\uFFFDme\nMug;mug;#DIV/0!\nTray;tray;ok\n');
    expect(result.products.map((p) => p.problems)).toEqual([
      [
        { row: 0, column: 0, message: UNREADABLE_REASON },
        { row: 0, column: 2, message: UNREADABLE_REASON },
      ],
      [{ row: 1, column: 2, message: EXCEL_ERROR_REASON }],
      [],
    ]);
  });

  it('reads a de-DE file with semicolons and checks it like the editor: problems on their cells', () => {
    const { sheet, mapping, result } = check(GERMAN_FILE);
    expect(sheet.delimiter).toBe(';');
    expect(sheet.headers[0]).toBe('Name');
    expect(mapping.every((m) => m !== null)).toBe(true);
    expect(result.products.map((p) => [p.slug, p.rows])).toEqual([
      ['leinendecke', [0, 1]],
      ['becher', [2]],
      ['kissen', [3]],
      ['leinendecke', [4]],
    ]);
    expect(result.products[0]?.problems).toEqual([]);
    expect(result.products[1]?.problems).toEqual([]);
    const kissen = result.products[2]?.problems ?? [];
    // "1,299" has three decimals in German; "x" is not a stock; 30 February does not exist.
    expect(kissen).toEqual(
      expect.arrayContaining([
        { row: 3, column: 3, message: MONEY_REASONS.tooManyDecimals },
        { row: 3, column: 7, message: expect.stringMatching(/whole number/i) },
        { row: 3, column: 8, message: expect.stringMatching(/no such date/i) },
      ]),
    );
    const tuch = result.products[3]?.problems ?? [];
    expect(tuch).toEqual(
      expect.arrayContaining([
        { row: 4, column: 2, message: BOOLEAN_REASON },
        { row: 4, column: 1, message: 'Slug “leinendecke” is also on row 2: each product needs its own' },
      ]),
    );
    expect([result.ready, result.withProblems]).toEqual([2, 2]);
  });

  it('builds the wire body the editor would send: minor units, options in order, text as typed', () => {
    const { sheet, mapping } = check(GERMAN_FILE);
    const { body, problems } = checkProduct([0, 1], mapping, readerOf(sheet.rows, {}), { settings: DE, site: undefined });
    expect(problems).toEqual([]);
    expect(body).toMatchObject({
      name: 'Leinendecke',
      slug: 'leinendecke',
      enabled: 'true',
      'module_field_14/product/price/usd/1': '129995',
      attributes: [
        {
          name: 'Größe',
          items: [
            { name: 'Klein', 'module_field_14/product_attribute_option/price/usd/1': '0' },
            { name: 'Groß', 'module_field_14/product_attribute_option/price/usd/1': '1050' },
          ],
        },
      ],
    });
  });

  it('a fix typed over a cell is checked like the file’s own text', () => {
    const sheet = parseSheet(GERMAN_FILE);
    const mapping = mappingOf(matchColumns(sheet.headers, DE.fields));
    const fixed = checkImport(
      sheet.rows,
      mapping,
      { '3:3': '1.299', '3:7': '3', '3:8': '28.02.2026', '4:2': 'ja', '4:1': 'tuch' },
      {
        settings: DE,
        site: undefined,
        createdSlugs: new Set(),
      },
    );
    expect(fixed.withProblems).toBe(0);
  });

  it('flags slugs already created on this site, and names a field the file has no column for', () => {
    const { result } = check('Slug;USD, Price\nbecher;1\n', DE, ['becher']);
    expect(result.products[0]?.problems).toEqual([
      { row: 0, column: null, message: 'Name: Name is required' },
      { row: 0, column: 0, message: 'Slug “becher” was already created on this site' },
    ]);
  });

  it('a blank slug is suggested from the name, as in the editor', () => {
    const { result } = check('Name,Slug\nCrème Brûlée,\n', settingsForLocale('en-US'));
    expect(result.products[0]?.slug).toBe('creme-brulee');
  });

  it('reads the site’s choices, named categories and defaults; its template comes back without a problem', () => {
    const harbour: SiteConfig = {
      id: 'harbour-linen',
      name: 'Harbour Linen',
      platform: { sandbox: true, siteId: '1001' },
      money: { currencies: ['aud', 'nzd'], decimals: 4 },
      labels: {
        inventory: { '1': { label: 'Inventory type', kind: 'choice', choices: [{ value: 'global', label: 'One stock' }] } },
      },
      references: {
        categoryEncoding: 'ids',
        categories: [{ id: '158198', name: 'Bedding', children: [{ id: '158199', name: 'Throws' }] }],
      },
      defaults: { weighting: '10' },
    };
    const site = siteInfoOf(harbour);
    const settings = settingsForSite('de-DE', site);
    const template = parseSheet(templateCsv(settings.fields, 'de-DE'));
    const mapping = mappingOf(matchColumns(template.headers, settings.fields));
    expect(checkImport(template.rows, mapping, {}, { settings, site, createdSlugs: new Set() }).withProblems).toBe(0);

    const sheet = parseSheet('Name;Inventory type;Categories;AUD, Price\nDecke;one stock;Throws, Bedding;12,3456\n');
    const own = mappingOf(matchColumns(sheet.headers, settings.fields));
    const { body } = checkProduct([0], own, readerOf(sheet.rows, {}), { settings, site });
    expect(body).toMatchObject({
      'module_field_14/product/inventory/1': 'global',
      category_array: ['158199', '158198'],
      weighting: '10',
      'module_field_14/product/price/aud/1': '123456',
    });
  });
});

describe('placeDetails', () => {
  it('puts the platform’s 422 details on the cells they name, and the rest on the product', () => {
    const sheet = parseSheet('Name,Slug,Option name,Attribute name\nThrow,throw,S,Size\n,,L,\n');
    const mapping = mappingOf(matchColumns(sheet.headers, DE.fields));
    const problems = placeDetails([0, 1], mapping, readerOf(sheet.rows, {}), DE, [
      { field: 'slug', message: 'Slug is already used' },
      { field: 'attributes[0].items[1].name', message: 'Taken' },
      { field: 'body', message: 'Odd' },
    ]);
    expect(problems).toEqual([
      { row: 0, column: 1, message: 'Slug is already used' },
      { row: 1, column: 2, message: 'Taken' },
      { row: 0, column: null, message: 'body: Odd' },
    ]);
  });
});

describe('the editor round trip', () => {
  it('a product brought back from the editor replaces its rows; later rows keep their fixes and statuses', () => {
    const sheet = parseSheet(
      'Name,Slug,Attribute name,Option name,"USD, Price",Notes\nThrow,throw,Size,S,1.50,keep\n,,,L,,\nMug,mug,,,2,\n',
    );
    const mapping = mappingOf(matchColumns(sheet.headers, settingsForLocale('en-US').fields)).map((m, i) =>
      sheet.headers[i] === 'Notes' ? null : m,
    );
    const en = settingsForLocale('en-US');
    const saved = {
      file: { fileName: 'f.csv', delimiter: ',', headers: sheet.headers, rows: sheet.rows },
      work: {
        mapping,
        fixes: { '2:4': '3' },
        statuses: { '2': { status: 'skipped' as const, message: 'x' } },
        started: false,
        concurrency: 4,
      },
    };
    const form = formOfImported(saved, 0, en, undefined);
    expect(form?.attributes[0]?.options.map((o) => o.name)).toEqual(['S', 'L']);
    // In the editor: the attribute named, and an option added.
    const attribute = form?.attributes[0];
    if (!form || !attribute) throw new Error('the product was not read');
    const grown = {
      ...form,
      attributes: [{ ...attribute, name: 'Size', options: [...attribute.options, { ...emptyOption(), name: 'XL' }] }],
    };
    const next = replaceProduct(saved, 0, grown, en);
    expect(next?.file.rows).toEqual([
      ['Throw', 'throw', 'Size', 'S', '1.50', 'keep'],
      ['', '', '', 'L', '', ''],
      ['', '', '', 'XL', '', ''],
      ['Mug', 'mug', '', '', '2', ''],
    ]);
    expect(next?.work.fixes).toEqual({ '3:4': '3' });
    expect(Object.keys(next?.work.statuses ?? {})).toEqual(['3']);
  });

  it('a field filled in the editor that the file has no column for comes back as a new column, not dropped', () => {
    const en = settingsForLocale('en-US');
    const sheet = parseSheet('Name,Slug\nThrow,throw\nMug,mug\n');
    const mapping = [...mappingOf(matchColumns(sheet.headers, en.fields))];
    const saved = {
      file: { fileName: 'f.csv', delimiter: ',', headers: sheet.headers, rows: sheet.rows },
      work: { mapping, fixes: {}, statuses: {}, started: false, concurrency: 4 },
    };
    const edited = { ...emptyProduct(), name: 'Throw', slug: 'throw', enabled: false, fields: ['', '', 'SKU-1', '', ''] };
    const next = replaceProduct(saved, 0, edited, en);
    expect(next?.file.headers).toEqual(['Name', 'Slug', 'Enabled [enabled]', 'Product field 3 [module_field_14/product_3]']);
    expect(next?.file.rows).toEqual([
      ['Throw', 'throw', 'false', 'SKU-1'],
      ['Mug', 'mug', '', ''],
    ]);
    const again = checkProduct([0], next?.work.mapping ?? [], readerOf(next?.file.rows ?? [], {}), { settings: en, site: undefined });
    expect(again.body).toEqual({ name: 'Throw', slug: 'throw', enabled: 'false', 'module_field_14/product_3': 'SKU-1' });
  });
});
