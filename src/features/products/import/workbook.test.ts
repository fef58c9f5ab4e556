/** Workbooks as Excel users make them, written here with exceljs and read back as the import reads them. */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readWorkbook } from './workbook';

async function bytesOf(book: ExcelJS.Workbook) {
  return new Uint8Array(await book.xlsx.writeBuffer());
}

async function catalogue() {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Notes');
  const sheet = book.addWorksheet('Products');
  sheet.addRow(['Name', 'SKU', 'USD Price', 'Starts', 'Enabled', 'Stock', 'Total']);
  const row = sheet.addRow(['Café Crème', 123, 1299.5, new Date(Date.UTC(2026, 2, 1, 14, 30)), true, 12, { formula: 'F2*2', result: 24 }]);
  row.getCell(2).numFmt = '00000';
  row.getCell(3).numFmt = '"$"#,##0.00';
  row.getCell(4).numFmt = 'dd.mm.yyyy hh:mm';
  sheet
    .addRow(['Mug', '00042', 0.1, new Date(Date.UTC(2026, 11, 24)), false, 0, { formula: '1/0', result: { error: '#DIV/0!' } }])
    .getCell(4).numFmt = 'yyyy-mm-dd';
  sheet.addRow([]);
  return book;
}

describe('readWorkbook', () => {
  it('reads the first sheet with rows, each cell as the person sees it, numbers in their notation', async () => {
    const book = await readWorkbook(await bytesOf(await catalogue()), 'de-DE');
    expect(book.sheets).toEqual([
      { name: 'Notes', rows: 0 },
      { name: 'Products', rows: 3 },
    ]);
    expect(book.sheet).toBe(1);
    expect(book.table).toEqual([
      ['Name', 'SKU', 'USD Price', 'Starts', 'Enabled', 'Stock', 'Total'],
      // Leading zeros kept (a format, or text); the currency's number; the date as shown; a formula's result.
      ['Café Crème', '00123', '1299,5', '2026-03-01 14:30', 'true', '12', '24'],
      ['Mug', '00042', '0,1', '2026-12-24', 'false', '0', '#DIV/0!'],
    ]);
  });

  it('writes numbers in the person’s notation: a decimal point in en-US', async () => {
    const book = await readWorkbook(await bytesOf(await catalogue()), 'en-US');
    expect(book.table[1]?.slice(1, 3)).toEqual(['00123', '1299.5']);
  });

  it('reads the sheet the person chose', async () => {
    const workbook = await catalogue();
    workbook.addWorksheet('More').addRow(['Name']);
    const book = await readWorkbook(await bytesOf(workbook), 'en-US', 2);
    expect(book.sheet).toBe(2);
    expect(book.table).toEqual([['Name']]);
  });
});
