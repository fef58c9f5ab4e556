/**
 * The dry run's grid: every row of the file under its product, every problem on its cell with its
 * message, cells fixed in place. Virtualised (@tanstack/react-virtual): only the rows in view are in the
 * page, so 10,000 rows scroll like 10.
 *
 * For the keyboard it is one Tab stop, as a spreadsheet is (the WAI-ARIA grid pattern): Tab lands on the
 * cell last visited (the first at first), the arrow keys, Home, End, Page Up and Page Down move between
 * cells, Enter or F2 edits a cell, Enter or Escape ends the edit back on the cell, and Tab leaves the grid.
 */
import { Badge, Button, Group, Input, Stack, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import focus from '@/lib/focus.module.css';
import { memo, useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent, type Ref } from 'react';
import type { CheckedProduct } from './check';
import type { ImportColumn } from './columns';
import type { ProductStatus } from './import-store';
import { detailsText, STATE_LABELS, stateOf, type ProductState } from './outcomes';
import classes from './import-grid.module.css';

export interface GridRow {
  row: number;
  product: CheckedProduct;
  first: boolean;
}

export interface GridProps {
  headers: readonly string[];
  rows: readonly (readonly string[])[];
  /** The file's columns shown (mapped ones), with their field. */
  columns: readonly { index: number; column: ImportColumn }[];
  fixes: Readonly<Record<string, string>>;
  visible: readonly GridRow[];
  /** Problems by "row:column"; "row:" for those of the row as a whole. */
  problems: ReadonlyMap<string, string[]>;
  statuses: Readonly<Record<string, ProductStatus>>;
  onFix: (row: number, column: number, text: string, product: CheckedProduct) => void;
  onOpenEditor: (product: CheckedProduct) => void;
  onDecide: (product: CheckedProduct, decision: 'send-again' | 'skip') => void;
}

const STATE_COLOURS: Record<ProductState, string> = {
  ready: 'blue',
  problems: 'red',
  sending: 'gray',
  created: 'green',
  updated: 'green',
  unchanged: 'gray',
  conflict: 'orange',
  rejected: 'red',
  unknown: 'orange',
  skipped: 'gray',
};

/** A product that was sent (or is being sent) is what the platform has: its cells stay as they were. */
const locked = (state: ProductState) => state === 'created' || state === 'updated' || state === 'sending' || state === 'unknown';

/** Changes shown in a product's cell; the rest are counted (the report lists them all). */
const CHANGES_SHOWN = 12;

/** What the dry run says of a product of the site: the fields that change, before → after, and how its items were found. */
function ActionNote({ product }: { product: CheckedProduct }) {
  const { action } = product;
  if (action.kind === 'new') {
    return (
      <Text size="xs" c="dimmed">
        New
      </Text>
    );
  }
  const found = action.matches.filter((m) => m.how !== 'new');
  const byName = found.filter((m) => m.how === 'matched by name').length;
  return (
    <Stack gap={2} data-testid="update-diff">
      <Text size="xs" fw={600}>
        {action.kind === 'unchanged'
          ? `Product ${action.id} of the site: nothing changes`
          : `Update of product ${action.id}: ${action.changes.length} ${action.changes.length === 1 ? 'field changes' : 'fields change'}`}
      </Text>
      {action.kind === 'update' && (
        <ul className={classes.changes}>
          {action.changes.slice(0, CHANGES_SHOWN).map((change, i) => (
            <li key={i}>
              <Text size="xs" span>
                {change.label}: {change.kind === 'added' ? 'new' : change.before === '' ? 'empty' : change.before} →{' '}
                {change.after === '' ? 'empty' : change.after}
              </Text>
            </li>
          ))}
          {action.changes.length > CHANGES_SHOWN && (
            <li>
              <Text size="xs" span c="dimmed">
                and {action.changes.length - CHANGES_SHOWN} more (all in the report)
              </Text>
            </li>
          )}
        </ul>
      )}
      {action.matches.length > 0 && (
        <Text size="xs" c="dimmed">
          {found.length > 0 &&
            `Attributes and options: ${found.length - byName > 0 ? `${found.length - byName} by id` : ''}${found.length - byName > 0 && byName > 0 ? ', ' : ''}${byName > 0 ? `${byName} matched by name` : ''}`}
          {found.length > 0 && found.length < action.matches.length && '; '}
          {action.matches
            .filter((m) => m.how === 'new')
            .map((m) => `${m.item}: new`)
            .join('; ')}
        </Text>
      )}
    </Stack>
  );
}

function StatusCell({
  product,
  state,
  status,
  messages,
  messageIds,
  onOpenEditor,
  onDecide,
}: {
  product: CheckedProduct;
  state: ProductState;
  status: ProductStatus | undefined;
  messages: readonly string[];
  /** The id of each message, in order: what the product's buttons are described by. */
  messageIds: readonly string[];
  onOpenEditor: () => void;
  onDecide: (decision: 'send-again' | 'skip') => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const answer = status?.status === 'created' ? (status.answer.id ?? status.answer.product_id) : undefined;
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={STATE_COLOURS[state]} variant="light">
        {STATE_LABELS[state]}
      </Badge>
      {answer !== undefined && <Text size="xs">Platform id {String(answer)}</Text>}
      {status?.status === 'rejected' && (
        <Text size="xs" c="red">
          {status.httpStatus ? `${status.httpStatus}: ` : ''}
          {status.message}
          {status.details.length > 0 && ` (${detailsText(status.details)})`}
        </Text>
      )}
      {status?.status === 'unknown' && <Text size="xs">{status.message}</Text>}
      {status?.status === 'conflict' && <Text size="xs">{status.message}</Text>}
      {(state === 'ready' || state === 'problems' || state === 'unchanged') && <ActionNote product={product} />}
      {messages.map((m, i) => (
        <Text key={i} size="xs" c="red" id={messageIds[i]}>
          {m}
        </Text>
      ))}
      {/* The grid moves the focus between its cells: its buttons are reached by the arrow keys, not Tab. */}
      {!locked(state) && (
        <Button
          size="compact-xs"
          variant="subtle"
          tabIndex={-1}
          onClick={onOpenEditor}
          // Starts with what it shows, for voice control; then which product.
          aria-label={`Open in editor: ${product.name || `row ${product.key + 2}`}`}
          aria-describedby={messageIds.length > 0 ? messageIds.join(' ') : undefined}
        >
          Open in editor
        </Button>
      )}
      {state === 'conflict' && (
        <Button size="compact-xs" variant="light" color="orange" tabIndex={-1} onClick={() => onDecide('send-again')}>
          Check it again
        </Button>
      )}
      {state === 'unknown' &&
        (confirming ? (
          <Group gap={4}>
            <Button size="compact-xs" color="orange" tabIndex={-1} onClick={() => onDecide('send-again')}>
              Not in the catalogue: send again
            </Button>
            <Button size="compact-xs" variant="default" tabIndex={-1} onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </Group>
        ) : (
          <Group gap={4}>
            <Button size="compact-xs" variant="light" color="orange" tabIndex={-1} onClick={() => setConfirming(true)}>
              Decide…
            </Button>
            <Button size="compact-xs" variant="subtle" tabIndex={-1} onClick={() => onDecide('skip')}>
              Skip it
            </Button>
          </Group>
        ))}
    </Stack>
  );
}

function EditableCell({
  label,
  text,
  fixed,
  disabled,
  describedBy,
  onCommit,
}: {
  label: string;
  text: string;
  fixed: boolean;
  disabled: boolean;
  /** The ids of the cell's problems, if it has any. */
  describedBy: string | undefined;
  onCommit: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // An edit ended by Enter or Escape leaves the keyboard on its cell; one ended by Tab or a click goes on.
  const backToCell = useRef(false);
  useEffect(() => {
    if (!editing && backToCell.current) {
      backToCell.current = false;
      button.current?.focus();
    }
  }, [editing]);
  const invalid = describedBy ? true : undefined;
  if (editing) {
    return (
      // Mantine's Input without its own aria attributes (TextInput would put its own over these two).
      <Input
        size="xs"
        withAria={false}
        aria-label={label}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        defaultValue={text}
        // Opened by a click, Enter or F2 on the cell: typing goes straight into it.
        ref={(element) => element?.focus()}
        onBlur={(event) => {
          setEditing(false);
          if (event.currentTarget.value !== text) onCommit(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          // Handled here: the key must not go on to the cell's button, which has the focus again by then
          // (Enter would open the edit once more).
          if (event.key === 'Enter' || event.key === 'Escape') event.preventDefault();
          if (event.key === 'Enter') {
            backToCell.current = true;
            event.currentTarget.blur();
          }
          if (event.key === 'Escape') {
            backToCell.current = true;
            event.currentTarget.value = text;
            event.currentTarget.blur();
          }
        }}
      />
    );
  }
  return (
    <button
      ref={button}
      type="button"
      tabIndex={-1}
      data-edit
      className={`${classes.value} ${fixed ? classes.fixed : ''}`}
      disabled={disabled}
      aria-label={`${label}: ${text || 'blank'}${disabled ? '' : ', edit'}`}
      aria-describedby={describedBy}
      onClick={() => setEditing(true)}
    >
      {text}
    </button>
  );
}

interface RowProps extends Pick<GridProps, 'columns' | 'rows' | 'fixes' | 'problems' | 'onFix' | 'onOpenEditor' | 'onDecide'> {
  /** The grid's own id, which the ids of the problems start with. */
  gridId: string;
  index: number;
  start: number;
  measure: Ref<HTMLDivElement>;
  entry: GridRow;
  template: string;
  status: ProductStatus | undefined;
}

/** One row; memoised, so measuring or scrolling re-renders only the rows whose place or content changed. */
const GridRowView = memo(function GridRowView({
  gridId,
  index,
  start,
  measure,
  entry,
  template,
  columns,
  rows,
  fixes,
  problems,
  status,
  onFix,
  onOpenEditor,
  onDecide,
}: RowProps) {
  const { row, product, first } = entry;
  const state = stateOf(product, status ? { [String(product.key)]: status } : {});
  const productMessages = product.rows.flatMap((r) => problems.get(`${r}:`) ?? []);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-index={index}
      ref={measure}
      className={`${classes.row} ${first ? classes.first : ''}`}
      style={{ gridTemplateColumns: template, transform: `translateY(${start}px)` }}
    >
      {/* Cells without a button of their own take the focus themselves (tabIndex -1: the grid moves it). */}
      <div role="rowheader" tabIndex={-1} data-col={0} className={`${classes.cell} ${classes.sticky}`}>
        <Text size="xs" c="dimmed">
          Row {row + 2}
        </Text>
      </div>
      <div role="gridcell" tabIndex={-1} data-col={1} className={classes.cell}>
        {first ? (
          <StatusCell
            product={product}
            state={state}
            status={status}
            messages={productMessages}
            messageIds={productMessages.map((_, i) => `${gridId}-${row}-product-${i}`)}
            onOpenEditor={() => onOpenEditor(product)}
            onDecide={(decision) => onDecide(product, decision)}
          />
        ) : null}
      </div>
      {columns.map(({ index: column, column: def }, place) => {
        const key = `${row}:${column}`;
        const fixed = key in fixes;
        const text = fixed ? (fixes[key] ?? '') : (rows[row]?.[column] ?? '');
        const messages = problems.get(key) ?? [];
        const messageId = (i: number) => `${gridId}-${row}-${column}-${i}`;
        return (
          <div
            key={column}
            role="gridcell"
            tabIndex={-1}
            data-col={place + 2}
            // A button takes no aria-invalid; the cell around it does (a grid cell may be invalid).
            aria-invalid={messages.length > 0 ? true : undefined}
            className={`${classes.cell} ${messages.length > 0 ? classes.problem : ''}`}
          >
            <EditableCell
              label={`Row ${row + 2}, ${def.label}`}
              text={text}
              fixed={fixed}
              disabled={locked(state)}
              describedBy={messages.length > 0 ? messages.map((_, i) => messageId(i)).join(' ') : undefined}
              onCommit={(value) => onFix(row, column, value, product)}
            />
            {messages.map((m, i) => (
              <span key={i} id={messageId(i)} className={classes.message}>
                {m}
              </span>
            ))}
          </div>
        );
      })}
    </div>
  );
});

/** Where the keyboard is in the grid: a row of `visible`, a cell (data-col) and which of its buttons. */
interface Place {
  row: number;
  col: number;
  sub: number;
}

/** Rows moved by Page Up and Page Down. */
const PAGE_ROWS = 10;

/** What takes the focus in a cell: its buttons that work, else the cell itself. */
function stopsIn(cell: HTMLElement): HTMLElement[] {
  const buttons = [...cell.querySelectorAll<HTMLElement>('button:not(:disabled)')];
  return buttons.length > 0 ? buttons : [cell];
}

const cellsOf = (row: HTMLElement) => [...row.querySelectorAll<HTMLElement>(':scope > [data-col]')];

/** The row, cell and button an element of the grid is in, or null outside the rows. */
function placeOf(element: HTMLElement): Place | null {
  const row = element.closest<HTMLElement>('[role="row"][data-index]');
  const cell = element.closest<HTMLElement>('[data-col]');
  if (!row || !cell) return null;
  return { row: Number(row.dataset.index), col: Number(cell.dataset.col), sub: Math.max(0, stopsIn(cell).indexOf(element)) };
}

export function ImportGrid({ headers, rows, columns, fixes, visible, problems, statuses, onFix, onOpenEditor, onDecide }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const gridId = useId();
  // The cell the keyboard was last on (a spreadsheet's first data cell at first), and one to focus once its
  // row is drawn (a row far off is drawn after the scroll that brings it into view).
  const active = useRef<Place>({ row: 0, col: 2, sub: 0 });
  const pending = useRef<Place | null>(null);
  // While the focus is in a cell the grid itself leaves the Tab order, so Tab and Shift+Tab leave the grid.
  const [inside, setInside] = useState(false);
  // The virtualizer's functions are called during this render only; nothing memoised receives them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: visible.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 36,
    overscan: 8,
    // Rows are built in the first render, in the background like the rest of the grid, rather than
    // after the scroller is first measured, which React does at once in one long task.
    initialRect: { width: 1200, height: 640 },
  });

  /** Focuses a cell (the nearest one there is), or scrolls its row into view to focus it once drawn. */
  const focusAt = (place: Place) => {
    if (visible.length === 0) return;
    const row = Math.min(Math.max(place.row, 0), visible.length - 1);
    const rowElement = scroller.current?.querySelector<HTMLElement>(`[role="row"][data-index="${row}"]`);
    if (!rowElement) {
      pending.current = { ...place, row };
      virtualizer.scrollToIndex(row);
      return;
    }
    const cells = cellsOf(rowElement);
    const cell = cells.filter((c) => Number(c.dataset.col) <= place.col).at(-1) ?? cells[0];
    if (!cell) return;
    const stops = stopsIn(cell);
    stops[Math.min(place.sub, stops.length - 1)]?.focus();
  };

  useEffect(() => {
    const place = pending.current;
    if (place && scroller.current?.querySelector(`[role="row"][data-index="${place.row}"]`)) {
      pending.current = null;
      focusAt(place);
    }
  });

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    if (event.target === event.currentTarget) {
      // Tab arrived on the grid: on to the cell last visited.
      focusAt(active.current);
      return;
    }
    const place = placeOf(event.target);
    if (place) {
      active.current = place;
      setInside(true);
    }
  };

  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setInside(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    // Keys typed while editing a cell are the field's.
    if (target.closest('input, textarea, select')) return;
    const here = target === event.currentTarget ? active.current : placeOf(target);
    if (!here) return;
    const rowElement = target.closest<HTMLElement>('[role="row"][data-index]');
    const stops = rowElement ? cellsOf(rowElement).flatMap(stopsIn) : [];
    const at = stops.indexOf(target);
    const ctrl = event.ctrlKey || event.metaKey;
    const last = visible.length - 1;
    const lastCol = columns.length + 1;
    switch (event.key) {
      case 'ArrowRight':
        if (at >= 0) stops[at + 1]?.focus();
        else focusAt(here);
        break;
      case 'ArrowLeft':
        if (at > 0) stops[at - 1]?.focus();
        else focusAt(here);
        break;
      case 'ArrowDown':
        focusAt({ row: here.row + 1, col: here.col, sub: 0 });
        break;
      case 'ArrowUp':
        focusAt({ row: here.row - 1, col: here.col, sub: 0 });
        break;
      case 'PageDown':
        focusAt({ row: Math.min(here.row + PAGE_ROWS, last), col: here.col, sub: 0 });
        break;
      case 'PageUp':
        focusAt({ row: Math.max(here.row - PAGE_ROWS, 0), col: here.col, sub: 0 });
        break;
      case 'Home':
        if (ctrl) focusAt({ row: 0, col: 0, sub: 0 });
        else stops[0]?.focus();
        break;
      case 'End':
        if (ctrl) focusAt({ row: last, col: lastCol, sub: 0 });
        else stops.at(-1)?.focus();
        break;
      case 'F2':
        if (target.matches('[data-edit]')) target.click();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const template = `4rem minmax(9rem, 13rem) ${columns.map(() => 'minmax(9rem, 1fr)').join(' ')}`;
  const rowsInView = virtualizer.getVirtualItems().flatMap((item) => {
    const entry = visible[item.index];
    if (!entry) return [];
    return [
      <GridRowView
        key={item.key}
        gridId={gridId}
        index={item.index}
        start={item.start}
        measure={virtualizer.measureElement}
        entry={entry}
        template={template}
        columns={columns}
        rows={rows}
        fixes={fixes}
        problems={problems}
        status={statuses[String(entry.product.key)]}
        onFix={onFix}
        onOpenEditor={onOpenEditor}
        onDecide={onDecide}
      />,
    ];
  });
  return (
    <div
      ref={scroller}
      // One Tab stop: the grid while the focus is outside it (it hands the focus on to a cell, and is
      // what the keyboard scrolls with when no row is drawn), none of its own while a cell has it.
      tabIndex={inside ? -1 : 0}
      className={`${classes.scroller} ${focus.scrollRegion}`}
      role="grid"
      aria-label="Rows of the file"
      aria-rowcount={visible.length + 1}
      aria-colcount={columns.length + 2}
      onFocus={onFocus}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <div role="row" className={classes.head} style={{ gridTemplateColumns: template }}>
        <div role="columnheader" className={`${classes.cell} ${classes.sticky}`}>
          Row
        </div>
        <div role="columnheader" className={classes.cell}>
          Product
        </div>
        {columns.map(({ index, column }) => (
          <div key={index} role="columnheader" className={classes.cell} title={headers[index]}>
            {column.label}
          </div>
        ))}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>{rowsInView}</div>
    </div>
  );
}
