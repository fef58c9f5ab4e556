import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { FormProvider, useForm, type UseFormGetValues } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { MONEY_REASONS } from '../model/money';
import { emptyProduct, type ProductForm } from '../model/product-form';
import { PriceGrid } from './price-grid';
import { ProductSettingsContext } from './settings';
import { settingsForLocale, type ProductSettings } from '../model/codec';
import { productResolver } from '../model/validate';

const TIERS = ['Price', 'Display price (RRP)', 'Price tier 3', 'Price tier 4'] as const;
const ROWS = ['AUD', 'CAD', 'EUR', 'GBP', 'NZD', 'USD'] as const;

function Harness({ onReady, settings }: { onReady: (getValues: UseFormGetValues<ProductForm>) => void; settings: ProductSettings }) {
  // The editor's own resolver: the grid's marks come from the same rules as Create.
  const [resolver] = useState(() => productResolver(settings));
  const form = useForm<ProductForm>({ defaultValues: emptyProduct(), resolver });
  const { getValues } = form;
  useEffect(() => onReady(getValues), [getValues, onReady]);
  return (
    <FormProvider {...form}>
      <ProductSettingsContext.Provider value={settings}>
        <PriceGrid scope="product" base="prices" caption="Product prices" />
      </ProductSettingsContext.Provider>
    </FormProvider>
  );
}

function setup(settings: ProductSettings = settingsForLocale('en-US')) {
  const user = userEvent.setup();
  let read: UseFormGetValues<ProductForm> | undefined;
  render(<Harness settings={settings} onReady={(getValues) => (read = getValues)} />);
  const values = () => {
    if (!read) throw new Error('the form is not ready');
    return read();
  };
  const cell = (name: string) => screen.getByRole('textbox', { name });
  const fillButton = () => screen.getByRole('button', { name: 'Fill or clear Product prices' });
  const fill = async (item: string) => {
    await user.click(fillButton());
    await user.click(await screen.findByRole('menuitem', { name: item }));
  };
  return { user, values, cell, fillButton, fill };
}

// Mantine and jsdom are slow to warm up on a busy machine; the first render alone can take seconds.
describe('PriceGrid', { timeout: 20_000 }, () => {
  it('names every cell by its currency and tier, row by row', () => {
    const { cell } = setup();
    const names = ROWS.flatMap((currency) => TIERS.map((tier) => `${currency} ${tier}`));
    const cells = screen.getAllByRole('textbox');
    expect(cells).toHaveLength(names.length);
    cells.forEach((input, i) => expect(input).toHaveAccessibleName(names[i]));
    expect(cell('USD Price')).toBe(cells[20]);
  });

  it('moves between rows with the Up and Down arrows', async () => {
    const { user, cell } = setup();
    await user.click(cell('CAD Display price (RRP)'));
    await user.keyboard('{ArrowDown}');
    expect(cell('EUR Display price (RRP)')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(cell('AUD Display price (RRP)')).toHaveFocus();
  });

  it('moves right at the end of the text and left at its start, but not from inside the text', async () => {
    const { user, cell } = setup();
    await user.click(cell('AUD Price'));
    await user.keyboard('12{ArrowRight}');
    expect(cell('AUD Display price (RRP)')).toHaveFocus();

    await user.keyboard('34{ArrowLeft}');
    // The caret moved inside "34"; the focus stays in the cell.
    expect(cell('AUD Display price (RRP)')).toHaveFocus();
    expect(cell('AUD Display price (RRP)')).toHaveProperty('selectionStart', 1);
    await user.keyboard('{ArrowLeft}');
    expect(cell('AUD Display price (RRP)')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(cell('AUD Price')).toHaveFocus();
  });

  it('moves down with Enter and up with Shift+Enter', async () => {
    const { user, cell } = setup();
    await user.click(cell('CAD Price tier 3'));
    await user.keyboard('{Enter}');
    expect(cell('EUR Price tier 3')).toHaveFocus();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(cell('CAD Price tier 3')).toHaveFocus();
  });

  it('leaves the grid for the Fill button on Escape, keeping what was typed', async () => {
    const { user, cell, fillButton, values } = setup();
    await user.click(cell('GBP Price tier 4'));
    await user.keyboard('7{Escape}');
    expect(fillButton()).toHaveFocus();
    expect(values().prices.gbp[3]).toBe('7.00');
  });

  it('reads a typed amount when the cell is left and shows it in canonical form', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Price'));
    await user.keyboard('1,299.50');
    await user.tab();
    expect(cell('USD Price')).toHaveValue('1299.50');
    expect(cell('USD Price')).not.toHaveAttribute('aria-invalid');
    expect(values().prices.usd[0]).toBe('1299.50');
  });

  it('reads cells in the editor’s locale, not the browser’s: in de-DE 1,299 has three decimals', async () => {
    const { user, cell, values } = setup(settingsForLocale('de-DE'));
    await user.click(cell('EUR Price'));
    await user.keyboard('1,299');
    await user.tab();
    expect(cell('EUR Price')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('EUR Price')).toHaveAccessibleDescription(MONEY_REASONS.tooManyDecimals);
    await user.click(cell('EUR Display price (RRP)'));
    await user.keyboard('1.299,5');
    await user.tab();
    expect(values().prices.eur.slice(0, 2)).toEqual(['1,299', '1299.50']);
  });

  it('with four decimal places, shows and keeps ten-thousandths', async () => {
    const { user, cell, values } = setup({ ...settingsForLocale('en-US'), decimals: 4 });
    await user.click(cell('USD Price'));
    await user.keyboard('2.5');
    await user.tab();
    expect(cell('USD Price')).toHaveValue('2.5000');
    expect(values().prices.usd[0]).toBe('2.5000');
  });

  it('marks an unreadable amount and keeps the text as typed', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Price'));
    await user.keyboard('abc');
    await user.tab();
    expect(cell('USD Price')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('USD Price')).toHaveAccessibleDescription(MONEY_REASONS.notANumber);
    expect(cell('USD Price')).toHaveValue('abc');
    expect(values().prices.usd[0]).toBe('abc');

    // Fixing it clears the mark.
    await user.clear(cell('USD Price'));
    await user.type(cell('USD Price'), '4');
    await user.tab();
    expect(cell('USD Price')).not.toHaveAttribute('aria-invalid');
    expect(values().prices.usd[0]).toBe('4.00');
  });

  it('fills a pasted block across and down from the cell it lands in', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('CAD Display price (RRP)'));
    await user.paste('1\t2\n3\t4');
    expect(cell('CAD Display price (RRP)')).toHaveValue('1.00');
    expect(cell('CAD Price tier 3')).toHaveValue('2.00');
    expect(cell('EUR Display price (RRP)')).toHaveValue('3.00');
    expect(cell('EUR Price tier 3')).toHaveValue('4.00');
    expect(values().prices.cad).toEqual(['', '1.00', '2.00', '']);
    expect(values().prices.eur).toEqual(['', '3.00', '4.00', '']);
    expect(values().prices.aud).toEqual(['', '', '', '']);
    expect(screen.getByText('Pasted 4 cells.')).toBeInTheDocument();
  });

  it('marks unreadable pasted values and keeps the focus in the cell pasted into', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('AUD Price'));
    await user.paste('abc\t2');
    expect(cell('AUD Price')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('AUD Price')).toHaveValue('abc');
    expect(values().prices.aud).toEqual(['abc', '2.00', '', '']);
    // The arrows must still work from where the paste landed.
    expect(cell('AUD Price')).toHaveFocus();
  });

  it('clips a pasted block larger than the grid and says how many cells were left out', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Price tier 3'));
    await user.paste('1\t2\t3\n4\t5\t6');
    expect(values().prices.usd).toEqual(['', '', '1.00', '2.00']);
    expect(values().prices.nzd).toEqual(['', '', '', '']);
    expect(screen.getByText('Pasted 2 cells; 4 that fell outside the grid were left out.')).toBeInTheDocument();
  });

  it('reads a spreadsheet’s block as written (thousands separators, currency signs, CRLF lines, a ragged last row)', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('GBP Price tier 3'));
    await user.paste('1,299.00\t12\r\n$7.5\tabc\r\n3\t4\t5\r\n');
    expect(cell('GBP Price tier 3')).toHaveValue('1299.00');
    expect(cell('GBP Price tier 4')).toHaveValue('12.00');
    expect(cell('NZD Price tier 3')).toHaveValue('7.50');
    // What cannot be read is kept as typed and marked, never turned into 0.
    expect(cell('NZD Price tier 4')).toHaveValue('abc');
    expect(cell('NZD Price tier 4')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('USD Price tier 3')).toHaveValue('3.00');
    expect(values().prices.usd).toEqual(['', '', '3.00', '4.00']);
    expect(screen.getByText(/1 that fell outside the grid were left out/)).toBeInTheDocument();
  });

  it('copies the last edited cell across its currency row', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('EUR Display price (RRP)'));
    await user.keyboard('5');
    await fill('Copy across its currency row');
    expect(values().prices.eur).toEqual(['5.00', '5.00', '5.00', '5.00']);
    expect(values().prices.gbp).toEqual(['', '', '', '']);
    expect(cell('EUR Price tier 4')).toHaveValue('5.00');
  });

  it('copies the last edited cell down its tier column', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('EUR Display price (RRP)'));
    await user.keyboard('5');
    await fill('Copy down its tier column');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['', '5.00', '', '']);
    }
    expect(cell('USD Display price (RRP)')).toHaveValue('5.00');
  });

  it('copies the last edited cell to the whole grid, then clears the grid', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('NZD Price tier 3'));
    await user.keyboard('2.5');
    await fill('Copy to the whole grid');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['2.50', '2.50', '2.50', '2.50']);
    }
    expect(cell('AUD Price')).toHaveValue('2.50');

    await fill('Clear the grid');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['', '', '', '']);
    }
    expect(cell('NZD Price tier 3')).toHaveValue('');
    expect(screen.getByText('Cleared every cell.')).toBeInTheDocument();
  });

  it('clearing the grid also clears the marks of unreadable cells', async () => {
    const { user, cell, fill } = setup();
    await user.click(cell('AUD Price'));
    await user.keyboard('abc');
    await user.tab();
    expect(cell('AUD Price')).toHaveAttribute('aria-invalid', 'true');
    await fill('Clear the grid');
    await waitFor(() => expect(cell('AUD Price')).not.toHaveAttribute('aria-invalid'));
    expect(cell('AUD Price')).toHaveValue('');
  });

  it('fills from the cell last edited, not from a cell Enter merely moved to', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('AUD Price'));
    // Type, confirm with Enter as in a spreadsheet (which moves down to CAD Price), then leave the grid.
    await user.keyboard('9{Enter}{Escape}');
    await fill('Copy across its currency row');
    expect(values().prices.aud).toEqual(['9.00', '9.00', '9.00', '9.00']);
  });
});
