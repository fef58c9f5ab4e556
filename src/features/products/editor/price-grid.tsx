/**
 * A spreadsheet-grade price grid: currencies as rows, tiers as columns, major units in the cells.
 * Arrows, Enter and Tab move as in a sheet, Escape leaves the grid, a block pasted from Excel or
 * Google Sheets fills from the cell it lands in. Cells are uncontrolled inputs: typing re-renders nothing
 * but the browser's own input.
 */
import { Anchor, Button, Group, List, Menu, Table, Text, Tooltip } from '@mantine/core';
import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { get, useFormContext, useFormState, type FieldPath } from 'react-hook-form';
import type { Currency } from '@/contract/site-api';
import { formatMinor, parseMoney } from '../model/money';
import type { ProductForm } from '../model/product-form';
import { gridOf, type SiteFields } from '../model/registry';
import { useMarkChanged } from './change-signal';
import { useFieldError } from './form-fields';
import { useProductSettings } from './settings';
import { isBlock, moveTarget, parseClipboardBlock, placeBlock } from './grid-logic';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './price-grid.module.css';

export interface PriceGridProps {
  /** Whose prices: the product's tiers or an option's (the registry's money fields of that scope). */
  scope: 'product' | 'option';
  /** Path of the grid in the form: `prices` or `attributes.0.options.1.prices`. */
  base: string;
  /** Visible title of the grid, also its accessible name. */
  caption: string;
  description?: string;
}

const cellPath = (base: string, currency: Currency, tier: number) => `${base}.${currency}.${tier}` as FieldPath<ProductForm>;

function PriceCell({
  base,
  currency,
  index,
  row,
  col,
  label,
}: {
  base: string;
  currency: Currency;
  index: number;
  row: number;
  col: number;
  label: string;
}) {
  const { register } = useFormContext<ProductForm>();
  const path = cellPath(base, currency, index);
  const error = useFieldError(path);
  const errorId = `${path}-error`;
  const input = (
    <input
      {...register(path)}
      className={classes.cell}
      aria-label={label}
      aria-invalid={error ? true : undefined}
      aria-describedby={error ? errorId : undefined}
      data-row={row}
      data-col={col}
      inputMode="decimal"
      autoComplete="off"
      spellCheck={false}
    />
  );
  return (
    <Table.Td className={classes.td} data-invalid={error ? true : undefined}>
      {/* Always the same tree, so the input keeps its focus when its error comes or goes. */}
      {/* On focus too, so a keyboard shows the problem as a mouse does (Mantine's default is hover only). */}
      <Tooltip label={error} disabled={!error} withArrow position="bottom" events={{ hover: true, focus: true, touch: false }}>
        {input}
      </Tooltip>
      {error && (
        <span id={errorId} className={hidden.visuallyHidden}>
          {error}
        </span>
      )}
    </Table.Td>
  );
}

/** The site's grid of a scope: its currencies, its visible tiers, and the tiers' hints as one sentence. */
function shapeOf(fields: SiteFields, scope: 'product' | 'option') {
  const { currencies, columns } = gridOf(fields, scope);
  const hints = columns.flatMap((column) => (column.hint ? [`${column.label}: ${column.hint}.`] : [])).join(' ');
  return { currencies, columns, hints };
}

/**
 * The grid's problems as text under it, each naming its cell ("USD, Display price (RRP): At most 2 decimal
 * places") and taking the cursor there: readable without a mouse or a tooltip.
 */
function GridProblems({
  base,
  currencies,
  columns,
  onShow,
}: {
  base: string;
  currencies: readonly Currency[];
  columns: readonly { index: number; label: string }[];
  onShow: (row: number, col: number) => void;
}) {
  const { control } = useFormContext<ProductForm>();
  const { errors } = useFormState({ control, name: base as FieldPath<ProductForm> });
  // react-hook-form's `get` answers `any`: the grid's errors, typed here.
  const grid: Record<string, ({ message?: string } | undefined)[] | undefined> | undefined = get(errors, base);
  if (!grid) return null;
  const problems = currencies.flatMap((currency, row) =>
    columns.flatMap((column, col) => {
      const message = grid[currency]?.[column.index]?.message;
      return message ? [{ row, col, text: `${currency.toUpperCase()}, ${column.label}: ${message}` }] : [];
    }),
  );
  if (problems.length === 0) return null;
  return (
    <List size="xs" c="red" mt={4} spacing={0} aria-label="Problems in this grid">
      {problems.map((problem) => (
        <List.Item key={problem.text}>
          <Anchor component="button" type="button" size="xs" c="red" onClick={() => onShow(problem.row, problem.col)}>
            {problem.text}
          </Anchor>
        </List.Item>
      ))}
    </List>
  );
}

export function PriceGrid({ scope, base, caption, description }: PriceGridProps) {
  const { getValues, setValue, trigger } = useFormContext<ProductForm>();
  const { locale, decimals, fields } = useProductSettings();
  const { currencies, columns, hints } = shapeOf(fields, scope);
  const about = [description, hints].filter(Boolean).join(' ');
  const tableRef = useRef<HTMLTableElement>(null);
  const exitRef = useRef<HTMLButtonElement>(null);
  const active = useRef<{ row: number; col: number }>({ row: 0, col: 0 });
  const [notice, setNotice] = useState('');
  const markChanged = useMarkChanged();
  const rows = currencies.length;
  const cols = columns.length;

  const focusCell = (row: number, col: number) => {
    tableRef.current?.querySelector<HTMLInputElement>(`input[data-row="${row}"][data-col="${col}"]`)?.focus();
  };

  /**
   * Sets cells from typed or pasted text: canonical "19.99" where readable, else kept as typed. Then the
   * form's resolver (the same codec and rules as Create) checks them, so a cell is marked by exactly the
   * rule that would refuse it on Create.
   */
  const commit = (cells: readonly { row: number; col: number; text: string }[]) => {
    const paths: FieldPath<ProductForm>[] = [];
    for (const { row, col, text } of cells) {
      const currency = currencies[row];
      const column = columns[col];
      if (!currency || !column) continue;
      const path = cellPath(base, currency, column.index);
      // Typed in the editor's locale ("1.299,00" in Germany), the one the codec sends with; kept in the
      // canonical "1299.00", which reads the same in every locale.
      const parsed = parseMoney(text, locale, currency, decimals);
      const value = parsed.ok && parsed.minor !== null ? formatMinor(parsed.minor, decimals) : parsed.ok ? '' : text;
      if (value !== getValues(path)) setValue(path, value, { shouldDirty: true });
      paths.push(path);
    }
    markChanged();
    void trigger(paths);
  };

  const position = (target: EventTarget) => {
    if (!(target instanceof HTMLInputElement) || target.dataset.row === undefined) return null;
    return { row: Number(target.dataset.row), col: Number(target.dataset.col), input: target };
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const at = position(event.target);
    if (!at) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      commit([{ row: at.row, col: at.col, text: at.input.value }]);
      exitRef.current?.focus();
      return;
    }
    const { selectionStart, selectionEnd, value } = at.input;
    const next = moveTarget(
      {
        key: event.key,
        shiftKey: event.shiftKey,
        atStart: selectionStart === 0 && selectionEnd === 0,
        atEnd: selectionStart === value.length && selectionEnd === value.length,
      },
      at.row,
      at.col,
      rows,
      cols,
    );
    if (!next) return;
    event.preventDefault();
    focusCell(next.row, next.col);
  };

  const onPaste = (event: ClipboardEvent<HTMLTableElement>) => {
    const at = position(event.target);
    const text = event.clipboardData.getData('text/plain');
    if (!at || !isBlock(text)) return;
    event.preventDefault();
    const { cells, clipped } = placeBlock(parseClipboardBlock(text), at.row, at.col, rows, cols);
    active.current = { row: at.row, col: at.col };
    commit(cells.map((cell) => ({ row: cell.row, col: cell.col, text: cell.value })));
    setNotice(
      clipped > 0 ? `Pasted ${cells.length} cells; ${clipped} that fell outside the grid were left out.` : `Pasted ${cells.length} cells.`,
    );
  };

  const onBlur = (event: React.FocusEvent<HTMLTableElement>) => {
    const at = position(event.target);
    if (at) commit([{ row: at.row, col: at.col, text: at.input.value }]);
  };

  // Fill copies from the last cell the user changed, not from one Enter merely moved to.
  const onInput = (event: React.FormEvent<HTMLTableElement>) => {
    const at = position(event.target);
    if (at) active.current = { row: at.row, col: at.col };
  };

  const fill = (what: 'row' | 'column' | 'grid' | 'clear') => {
    const { row, col } = active.current;
    const source = currencies[row];
    const sourceColumn = columns[col];
    const value = what === 'clear' || !source || !sourceColumn ? '' : String(getValues(cellPath(base, source, sourceColumn.index)) ?? '');
    const cells = currencies.flatMap((_, r) =>
      Array.from({ length: cols }, (_unused, c) => ({ row: r, col: c, text: value })).filter(
        ({ col: c }) => what === 'grid' || what === 'clear' || (what === 'row' ? r === row : c === col),
      ),
    );
    commit(cells);
    const where =
      what === 'row' ? `across ${source?.toUpperCase()}` : what === 'column' ? `down ${sourceColumn?.label ?? ''}` : 'to every cell';
    setNotice(what === 'clear' ? 'Cleared every cell.' : `Copied ${value || 'an empty value'} ${where}.`);
  };

  return (
    <div className={classes.wrapper}>
      {/* Outside the scrolling frame, so the grid's title stays in view when its tiers scroll. */}
      <Text id={`${base}-grid-caption`} className={classes.caption}>
        {caption}
      </Text>
      <div className={classes.scroller}>
        <Table
          ref={tableRef}
          className={classes.table}
          withTableBorder
          withColumnBorders
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={onBlur}
          onInput={onInput}
          aria-labelledby={`${base}-grid-caption`}
          aria-describedby={about ? `${base}-grid-description` : undefined}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" className={classes.rowHeader}>
                Currency
              </Table.Th>
              {columns.map((column) => (
                <Table.Th scope="col" key={column.tier}>
                  {column.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {currencies.map((currency, row) => (
              <Table.Tr key={currency}>
                <Table.Th scope="row" className={classes.rowHeader}>
                  {currency.toUpperCase()}
                </Table.Th>
                {columns.map((column, col) => (
                  <PriceCell
                    key={column.tier}
                    base={base}
                    currency={currency}
                    index={column.index}
                    row={row}
                    col={col}
                    label={`${currency.toUpperCase()} ${column.label}`}
                  />
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </div>
      <GridProblems base={base} currencies={currencies} columns={columns} onShow={focusCell} />
      {about && (
        <Text id={`${base}-grid-description`} size="xs" c="dimmed" mt={4}>
          {about}
        </Text>
      )}
      <Group gap="xs" mt="xs">
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button ref={exitRef} variant="default" size="xs" aria-label={`Fill or clear ${caption}`}>
              Fill…
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>From the last cell you edited</Menu.Label>
            <Menu.Item onClick={() => fill('row')}>Copy across its currency row</Menu.Item>
            <Menu.Item onClick={() => fill('column')}>Copy down its tier column</Menu.Item>
            <Menu.Item onClick={() => fill('grid')}>Copy to the whole grid</Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => fill('clear')}>
              Clear the grid
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Text size="xs" c="dimmed" aria-live="polite">
          {notice}
        </Text>
      </Group>
    </div>
  );
}
