import { Button } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from '@/test/render';
import { BASE_FIELDS } from '../model/registry';
import type { CheckedProduct } from './check';
import { importColumns } from './columns';
import { ImportGrid, type GridRow } from './import-grid';

const all = importColumns(BASE_FIELDS);
const column = (label: string) => {
  const found = all.find((c) => c.label === label);
  if (!found) throw new Error(`no column ${label}`);
  return found;
};
// The file: Name, Slug; two products of one row each, the second's slug refused.
const headers = ['Name', 'Slug'];
const rows = [
  ['Mug', 'mug'],
  ['Jug', 'mug'],
];
const mug: CheckedProduct = { key: 0, rows: [0], name: 'Mug', slug: 'mug', problems: [], action: { kind: 'new' } };
const jug: CheckedProduct = { key: 1, rows: [1], name: 'Jug', slug: 'mug', problems: [], action: { kind: 'new' } };
const visible: GridRow[] = [
  { row: 0, product: mug, first: true },
  { row: 1, product: jug, first: true },
];

function renderGrid() {
  const onFix = vi.fn();
  render(
    <>
      <Button>Before</Button>
      <ImportGrid
        headers={headers}
        rows={rows}
        columns={[
          { index: 0, column: column('Name') },
          { index: 1, column: column('Slug') },
        ]}
        fixes={{}}
        visible={visible}
        problems={new Map([['1:1', ['Used by another product in this file']]])}
        statuses={{}}
        onFix={onFix}
        onOpenEditor={vi.fn()}
        onDecide={vi.fn()}
      />
      <Button>After</Button>
    </>,
  );
  return { onFix };
}

describe('ImportGrid', () => {
  // jsdom lays nothing out: the grid's scroller (and each row) gets a height, so that its rows are drawn.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(640);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
  });
  afterEach(() => vi.restoreAllMocks());

  it('is one Tab stop, with the arrow keys, Home and End between its cells', async () => {
    const user = userEvent.setup();
    renderGrid();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Before' })).toHaveFocus();
    // Into the grid, on its first data cell, as a spreadsheet opens.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Row 2, Name: Mug, edit' })).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Row 3, Name: Jug, edit' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Row 3, Slug: mug, edit' })).toHaveFocus();
    await user.keyboard('{Home}');
    expect(screen.getByRole('rowheader', { name: 'Row 3' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: 'Open in editor: Jug' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('button', { name: 'Open in editor: Mug' })).toHaveFocus();
    // Out with Tab; back with Shift+Tab, on the cell it left.
    await user.tab();
    expect(screen.getByRole('button', { name: 'After' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Open in editor: Mug' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Before' })).toHaveFocus();
  });

  it('ties a cell’s problem to it, and edits a cell with F2, back on the cell with Enter', async () => {
    const user = userEvent.setup();
    const { onFix } = renderGrid();
    const slug = screen.getByRole('button', { name: 'Row 3, Slug: mug, edit' });
    expect(slug).toHaveAccessibleDescription('Used by another product in this file');
    expect(slug.closest('[role="gridcell"]')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: 'Row 2, Slug: mug, edit' }).closest('[role="gridcell"]')).not.toHaveAttribute('aria-invalid');

    await user.tab();
    await user.tab();
    await user.keyboard('{ArrowDown}{End}{F2}');
    const field = screen.getByRole('textbox', { name: 'Row 3, Slug' });
    expect(field).toHaveFocus();
    expect(field).toHaveAccessibleDescription('Used by another product in this file');
    await user.clear(field);
    await user.type(field, 'jug{Enter}');
    expect(onFix).toHaveBeenCalledWith(1, 1, 'jug', jug);
    // The fix is the page's to keep (it is not kept here): the cell shows the file's text again.
    expect(screen.getByRole('button', { name: 'Row 3, Slug: mug, edit' })).toHaveFocus();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    // Escape drops an edit, back on the cell.
    await user.keyboard('{F2}');
    await user.type(screen.getByRole('textbox', { name: 'Row 3, Slug' }), 'x{Escape}');
    expect(onFix).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Row 3, Slug: mug, edit' })).toHaveFocus();
  });
});
