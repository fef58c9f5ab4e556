/**
 * Import from the files people really have: text files in the encodings spreadsheet programs save, and
 * Excel workbooks made here with exceljs. Each either arrives at the sandbox exactly as written, or is
 * stopped before anything is sent, with the reason on the page.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { forgetImports, storedProducts } from './imports';

/** A downloaded workbook, opened with exceljs (whose `load` is typed for an ArrayBuffer). */
async function openWorkbook(path: string) {
  const bytes = await readFile(path);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return book;
}

async function stored(request: APIRequestContext, prefix: string) {
  return [...(await storedProducts(request, prefix)).values()].map((product) => product.body);
}

const summary = (page: Page) => page.getByRole('status', { name: 'Import summary' });
const howRead = (page: Page) => page.getByRole('status', { name: 'How the file was read' });

async function openImport(page: Page) {
  await forgetImports(page);
  await page.goto('/products/import');
  await expect(page.getByRole('heading', { level: 1, name: 'Import products' })).toBeVisible();
}

async function choose(page: Page, name: string, buffer: Buffer, mimeType = 'text/csv') {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByText(new RegExp(`${name.replace('.', '\\.')}: \\d+ rows?`))).toBeVisible();
}

/** Windows-1252 bytes of text whose every character that code page has (as Excel on Windows saves "CSV"). */
function windows1252(text: string): Buffer {
  const extra: Record<string, number> = {
    '€': 0x80,
    '‚': 0x82,
    '„': 0x84,
    '…': 0x85,
    '‘': 0x91,
    '’': 0x92,
    '“': 0x93,
    '”': 0x94,
    '–': 0x96,
    '—': 0x97,
  };
  return Buffer.from(
    [...text].map((c) => {
      const code = extra[c] ?? c.charCodeAt(0);
      if (code > 0xff) throw new Error(`${c} is not in Windows-1252`);
      return code;
    }),
  );
}

function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

test.describe('text files in any encoding', () => {
  test.use({ locale: 'de-DE' });

  const NAME = 'Café Crème „Größe“ – 5 €';
  // UTF-16 (a byte order mark, tabs) and Windows-1252 (whose euro sign and curly quotes only a browser's
  // decoder reads as Chromium does): UTF-8, with a mark or without, is the decoder's and the panel's own tests'.
  const cases: { file: string; label: RegExp; bytes: (text: string) => Buffer }[] = [
    { file: 'unicode.txt', label: /Read as UTF-16 LE: the file says so/, bytes: utf16le },
    { file: 'excel-windows.csv', label: /Read as Windows-1252: the file is not valid UTF-8/, bytes: windows1252 },
  ];

  for (const { file, label, bytes } of cases) {
    test(`${file}: read in its encoding, shown with a sample line, and the name arrives exactly as written`, async ({ page, request }) => {
      const id = `enc${Date.now().toString(36)}`;
      const separator = file.endsWith('.txt') ? '\t' : ';';
      const text = [['Name', 'Slug', 'USD, Price'].join(separator), [NAME, `${id}-1`, '4,50'].join(separator)].join('\r\n');
      await openImport(page);
      await choose(page, file, bytes(text));
      await expect(howRead(page)).toContainText(label);
      await expect(page.getByTestId('sample-line')).toHaveText([NAME, `${id}-1`, '4,50'].join(separator));
      await expect(summary(page)).toContainText('1 ready');
      await page.getByRole('button', { name: 'Create 1 product' }).click();
      await expect(summary(page)).toContainText('1 created');
      expect((await stored(request, id)).map((body) => body.name)).toEqual([NAME]);
    });
  }

  test('a file valid in none of them is stopped before sending, with the reason on its cell; the person can pick the encoding it was saved in', async ({
    page,
    request,
  }) => {
    const id = `enx${Date.now().toString(36)}`;
    // Mac OS Roman: é is 0x8E, which Windows-1252 reads as Ž; and 0x81 (Å), which Windows-1252 leaves undefined.
    const bytes = Buffer.concat([Buffer.from(`Name;Slug\r\nCaf`), Buffer.from([0x8e, 0x20, 0x81]), Buffer.from(`;${id}-1\r\n`)]);
    await openImport(page);
    await choose(page, 'mac.csv', bytes);
    await expect(howRead(page)).toContainText('Read as Windows-1252');
    await expect(howRead(page)).toContainText('1 character could not be read');
    await expect(page.getByTestId('sample-line')).toHaveText(`CafŽ \uFFFD;${id}-1`);
    await expect(summary(page)).toContainText('0 ready');
    await expect(summary(page)).toContainText('1 with problems');
    await expect(page.getByRole('button', { name: /^Row 2, Name: / }).locator('xpath=..')).toContainText(
      'a character the file’s encoding could not represent',
    );
    await expect(page.getByRole('button', { name: /^Create/ })).toBeDisabled();

    await page.getByLabel('Encoding').selectOption('macintosh');
    await expect(howRead(page)).toContainText('Read as Mac OS Roman: you chose it');
    await expect(page.getByTestId('sample-line')).toHaveText(`Café Å;${id}-1`);
    await expect(summary(page)).toContainText('1 ready');
    await page.getByRole('button', { name: 'Create 1 product' }).click();
    await expect(summary(page)).toContainText('1 created');
    expect((await stored(request, id)).map((body) => body.name)).toEqual(['Café Å']);
  });
});

/** A catalogue as Excel users keep it: a notes sheet first and empty, then the products. */
async function catalogueWorkbook(id: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  book.addWorksheet('Notes');
  const sheet = book.addWorksheet('Products');
  sheet.addRow(['Name', 'Slug', 'Product field 1', 'USD, Price', 'Release date', 'Attribute name', 'Option name', 'Stock']);
  const first = sheet.addRow(['Café Crème', `${id}-1`, 123, 1299.5, new Date(Date.UTC(2026, 2, 1, 14, 30)), 'Größe', 'Klein', 12]);
  first.getCell(3).numFmt = '00000';
  first.getCell(4).numFmt = '"$"#,##0.00';
  first.getCell(5).numFmt = 'dd.mm.yyyy hh:mm';
  // The second option's stock is a formula: its result is what is read.
  sheet.addRow(['', '', '', '', '', '', 'Groß', { formula: 'H2*2', result: 24 }]);
  sheet.addRow(['Mug', `${id}-2`, '00042', 12, '', '', '', '']).getCell(4).numFmt = '#,##0.00 [$€-407]';
  return Buffer.from(await book.xlsx.writeBuffer());
}

for (const [timezoneId, releaseUtc] of [
  ['Europe/Berlin', Date.UTC(2026, 2, 1, 13, 30)],
  ['America/New_York', Date.UTC(2026, 2, 1, 19, 30)],
] as const) {
  test.describe(`an Excel workbook in ${timezoneId}`, () => {
    test.use({ locale: 'de-DE', timezoneId });

    test('is read from its first sheet with rows, each cell as Excel shows it, and the sandbox stores exactly that', async ({
      page,
      request,
    }) => {
      const id = `xl${timezoneId.slice(0, 2).toLowerCase()}${Date.now().toString(36)}`;
      await openImport(page);
      await choose(page, 'katalog.xlsx', await catalogueWorkbook(id), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      await expect(howRead(page)).toContainText('Excel workbook: read sheet “Products” (2 of 2); the first sheet, “Notes”, is empty');
      await expect(summary(page)).toContainText('2 ready');
      await page.getByRole('button', { name: 'Create 2 products' }).click();
      await expect(summary(page)).toContainText('2 created');

      const bodies = await stored(request, id);
      const crème = bodies.find((b) => b.slug === `${id}-1`);
      expect(crème).toMatchObject({
        name: 'Café Crème',
        'module_field_14/product_1': '00123',
        'module_field_14/product/price/usd/1': '129950',
        release_date: String(releaseUtc / 1000),
      });
      const items = (crème?.attributes as { items: Record<string, string>[] }[] | undefined)?.[0]?.items ?? [];
      expect(items.map((item) => [item.name, item['module_field_14/product_attribute_option/inventory/1']])).toEqual([
        ['Klein', '12'],
        ['Groß', '24'],
      ]);
      expect(bodies.find((b) => b.slug === `${id}-2`)).toMatchObject({
        name: 'Mug',
        'module_field_14/product_1': '00042',
        'module_field_14/product/price/usd/1': '1200',
      });

      // The report as a workbook: the file's cells as they were read, with what became of each product.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Report (Excel)' }).click();
      const report = await openWorkbook(await (await download).path());
      const rows = report.worksheets[0]
        ?.getSheetValues()
        .slice(1)
        .map((row) => (Array.isArray(row) ? row.slice(1) : []));
      expect(rows?.[0]?.slice(0, 5)).toEqual(['Import status', 'Import message', 'Platform answer', 'Name', 'Slug']);
      expect(rows?.[1]?.[0]).toBe('created');
      expect(rows?.[1]?.slice(3, 6)).toEqual(['Café Crème', `${id}-1`, '00123']);
    });
  });
}

test('the template as a workbook: header frozen, each column’s help as a note, yes/no columns as drop-down lists, the example product with its stock', async ({
  page,
}) => {
  await openImport(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Template (Excel)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/-products-template\.xlsx$/);
  const book = await openWorkbook(await file.path());
  const sheet = book.getWorksheet('Products');
  if (!sheet) throw new Error('No Products sheet');
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  const headers = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
  expect(headers[0]).toBe('Name [name]');
  const column = (prefix: string) => headers.findIndex((h) => h.startsWith(prefix)) + 1;
  const note = sheet.getCell(1, column('Weighting [')).note;
  expect(typeof note === 'string' ? note : JSON.stringify(note)).toContain('Sort position');
  const enabled = sheet.getCell(2, column('Enabled ['));
  expect(enabled.dataValidation).toMatchObject({ type: 'list' });
  expect(sheet.getCell(2, column('USD, Price [')).value).toBe(49.95);
  const stock = column('Stock [');
  expect([sheet.getCell(2, stock).value, sheet.getCell(3, stock).value]).toEqual([12, 4]);
});
