/** The template and the report as workbooks, opened again with exceljs as Excel would read them. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { fieldsForSite } from '../model/site-fields';
import { reportWorkbook, templateWorkbook } from './workbook-files';

const SHOP: SiteConfig = {
  id: 'shop',
  name: 'Shop',
  platform: { sandbox: true, siteId: '1001' },
  money: { currencies: ['eur'], decimals: 2 },
  labels: {
    inventory: {
      '1': {
        label: 'Inventory type',
        kind: 'choice',
        choices: [
          { value: 'global', label: 'One stock, all options' },
          { value: 'option', label: 'Per option' },
        ],
      },
    },
  },
};

async function open(blob: Blob) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(await blob.arrayBuffer());
  return book;
}

describe('templateWorkbook', () => {
  it('offers a choice column of the site profile as a drop-down list of its labels, commas and all', async () => {
    const book = await open(await templateWorkbook(fieldsForSite(siteInfoOf(SHOP))));
    const sheet = book.getWorksheet('Products');
    const lists = book.getWorksheet('Lists');
    if (!sheet || !lists) throw new Error('The template lacks its sheets');
    const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const column = headers.findIndex((h) => h.startsWith('Inventory type [')) + 1;
    expect(column).toBeGreaterThan(0);
    const rule = sheet.getCell(2, column).dataValidation;
    expect(rule).toMatchObject({ type: 'list', allowBlank: true });
    const [, letter, first, last] = /^Lists!\$([A-Z]+)\$(\d+):\$[A-Z]+\$(\d+)$/.exec(rule.formulae?.[0] ?? '') ?? [];
    const values = Array.from({ length: Number(last) - Number(first) + 1 }, (_, i) => lists.getCell(`${letter}${Number(first) + i}`).value);
    expect(values).toEqual(['One stock, all options', 'Per option']);
    const note = sheet.getCell(1, column).note;
    expect(typeof note === 'string' ? note : JSON.stringify(note)).toContain('One of: One stock, all options, Per option.');
    expect(lists.state).toBe('hidden');
  });
});

describe('reportWorkbook', () => {
  it('writes every cell as text, as it was read, after the status, message and answer', async () => {
    const book = await open(
      await reportWorkbook(
        ['Name', 'SKU'],
        [
          ['Mug', '00042'],
          ['Tray', '7'],
        ],
        new Map([[0, { status: 'created', message: '', answer: '{"id":"9"}' }]]),
      ),
    );
    const rows = book.worksheets[0]
      ?.getSheetValues()
      .slice(1)
      .map((row) => (Array.isArray(row) ? row.slice(1) : []));
    expect(rows).toEqual([
      ['Import status', 'Import message', 'Platform answer', 'Name', 'SKU'],
      ['created', '', '{"id":"9"}', 'Mug', '00042'],
      ['', '', '', 'Tray', '7'],
    ]);
    expect(book.worksheets[0]?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });
});
