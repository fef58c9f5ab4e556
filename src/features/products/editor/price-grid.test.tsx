import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { FormProvider, useForm, type UseFormGetValues } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { MONEY_REASONS } from '../model/money';
import { emptyProduct, type ProductForm } from '../model/product-form';
import { PriceGrid } from './price-grid';

const TIERS = ['Tier 1', 'Tier 2', 'Tier 3', 'Tier 4'] as const;
const ROWS = ['AUD', 'CAD', 'EUR', 'GBP', 'NZD', 'USD'] as const;

function Harness({ onReady }: { onReady: (getValues: UseFormGetValues<ProductForm>) => void }) {
  const form = useForm<ProductForm>({ defaultValues: emptyProduct() });
  const { getValues } = form;
  useEffect(() => onReady(getValues), [getValues, onReady]);
  return (
    <FormProvider {...form}>
      <PriceGrid base="prices" tierLabels={TIERS} caption="Product prices" />
    </FormProvider>
  );
}

function setup() {
  const user = userEvent.setup();
  let read: UseFormGetValues<ProductForm> | undefined;
  render(<Harness onReady={(getValues) => (read = getValues)} />);
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
    expect(cell('USD Tier 1')).toBe(cells[20]);
  });

  it('moves between rows with the Up and Down arrows', async () => {
    const { user, cell } = setup();
    await user.click(cell('CAD Tier 2'));
    await user.keyboard('{ArrowDown}');
    expect(cell('EUR Tier 2')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(cell('AUD Tier 2')).toHaveFocus();
  });

  it('moves right at the end of the text and left at its start, but not from inside the text', async () => {
    const { user, cell } = setup();
    await user.click(cell('AUD Tier 1'));
    await user.keyboard('12{ArrowRight}');
    expect(cell('AUD Tier 2')).toHaveFocus();

    await user.keyboard('34{ArrowLeft}');
    // The caret moved inside "34"; the focus stays in the cell.
    expect(cell('AUD Tier 2')).toHaveFocus();
    expect(cell('AUD Tier 2')).toHaveProperty('selectionStart', 1);
    await user.keyboard('{ArrowLeft}');
    expect(cell('AUD Tier 2')).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(cell('AUD Tier 1')).toHaveFocus();
  });

  it('moves down with Enter and up with Shift+Enter', async () => {
    const { user, cell } = setup();
    await user.click(cell('CAD Tier 3'));
    await user.keyboard('{Enter}');
    expect(cell('EUR Tier 3')).toHaveFocus();
    await user.keyboard('{Shift>}{Enter}{/Shift}');
    expect(cell('CAD Tier 3')).toHaveFocus();
  });

  it('leaves the grid for the Fill button on Escape, keeping what was typed', async () => {
    const { user, cell, fillButton, values } = setup();
    await user.click(cell('GBP Tier 4'));
    await user.keyboard('7{Escape}');
    expect(fillButton()).toHaveFocus();
    expect(values().prices.gbp[3]).toBe('7.00');
  });

  it('reads a typed amount when the cell is left and shows it in canonical form', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Tier 1'));
    await user.keyboard('1,299.50');
    await user.tab();
    expect(cell('USD Tier 1')).toHaveValue('1299.50');
    expect(cell('USD Tier 1')).not.toHaveAttribute('aria-invalid');
    expect(values().prices.usd[0]).toBe('1299.50');
  });

  it('marks an unreadable amount and keeps the text as typed', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Tier 1'));
    await user.keyboard('abc');
    await user.tab();
    expect(cell('USD Tier 1')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('USD Tier 1')).toHaveAccessibleDescription(MONEY_REASONS.notANumber);
    expect(cell('USD Tier 1')).toHaveValue('abc');
    expect(values().prices.usd[0]).toBe('abc');

    // Fixing it clears the mark.
    await user.clear(cell('USD Tier 1'));
    await user.type(cell('USD Tier 1'), '4');
    await user.tab();
    expect(cell('USD Tier 1')).not.toHaveAttribute('aria-invalid');
    expect(values().prices.usd[0]).toBe('4.00');
  });

  it('fills a pasted block across and down from the cell it lands in', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('CAD Tier 2'));
    await user.paste('1\t2\n3\t4');
    expect(cell('CAD Tier 2')).toHaveValue('1.00');
    expect(cell('CAD Tier 3')).toHaveValue('2.00');
    expect(cell('EUR Tier 2')).toHaveValue('3.00');
    expect(cell('EUR Tier 3')).toHaveValue('4.00');
    expect(values().prices.cad).toEqual(['', '1.00', '2.00', '']);
    expect(values().prices.eur).toEqual(['', '3.00', '4.00', '']);
    expect(values().prices.aud).toEqual(['', '', '', '']);
    expect(screen.getByText('Pasted 4 cells.')).toBeInTheDocument();
  });

  it('marks unreadable pasted values and keeps the focus in the cell pasted into', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('AUD Tier 1'));
    await user.paste('abc\t2');
    expect(cell('AUD Tier 1')).toHaveAttribute('aria-invalid', 'true');
    expect(cell('AUD Tier 1')).toHaveValue('abc');
    expect(values().prices.aud).toEqual(['abc', '2.00', '', '']);
    // The arrows must still work from where the paste landed.
    expect(cell('AUD Tier 1')).toHaveFocus();
  });

  it('clips a pasted block larger than the grid and says how many cells were left out', async () => {
    const { user, cell, values } = setup();
    await user.click(cell('USD Tier 3'));
    await user.paste('1\t2\t3\n4\t5\t6');
    expect(values().prices.usd).toEqual(['', '', '1.00', '2.00']);
    expect(values().prices.nzd).toEqual(['', '', '', '']);
    expect(screen.getByText('Pasted 2 cells; 4 that fell outside the grid were left out.')).toBeInTheDocument();
  });

  it('copies the last edited cell across its currency row', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('EUR Tier 2'));
    await user.keyboard('5');
    await fill('Copy across its currency row');
    expect(values().prices.eur).toEqual(['5.00', '5.00', '5.00', '5.00']);
    expect(values().prices.gbp).toEqual(['', '', '', '']);
    expect(cell('EUR Tier 4')).toHaveValue('5.00');
  });

  it('copies the last edited cell down its tier column', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('EUR Tier 2'));
    await user.keyboard('5');
    await fill('Copy down its tier column');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['', '5.00', '', '']);
    }
    expect(cell('USD Tier 2')).toHaveValue('5.00');
  });

  it('copies the last edited cell to the whole grid, then clears the grid', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('NZD Tier 3'));
    await user.keyboard('2.5');
    await fill('Copy to the whole grid');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['2.50', '2.50', '2.50', '2.50']);
    }
    expect(cell('AUD Tier 1')).toHaveValue('2.50');

    await fill('Clear the grid');
    for (const currency of ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const) {
      expect(values().prices[currency]).toEqual(['', '', '', '']);
    }
    expect(cell('NZD Tier 3')).toHaveValue('');
    expect(screen.getByText('Cleared every cell.')).toBeInTheDocument();
  });

  it('clearing the grid also clears the marks of unreadable cells', async () => {
    const { user, cell, fill } = setup();
    await user.click(cell('AUD Tier 1'));
    await user.keyboard('abc');
    await user.tab();
    expect(cell('AUD Tier 1')).toHaveAttribute('aria-invalid', 'true');
    await fill('Clear the grid');
    await waitFor(() => expect(cell('AUD Tier 1')).not.toHaveAttribute('aria-invalid'));
    expect(cell('AUD Tier 1')).toHaveValue('');
  });

  it('fills from the cell last edited, not from a cell Enter merely moved to', async () => {
    const { user, cell, values, fill } = setup();
    await user.click(cell('AUD Tier 1'));
    // Type, confirm with Enter as in a spreadsheet (which moves down to CAD Tier 1), then leave the grid.
    await user.keyboard('9{Enter}{Escape}');
    await fill('Copy across its currency row');
    expect(values().prices.aud).toEqual(['9.00', '9.00', '9.00', '9.00']);
  });
});
