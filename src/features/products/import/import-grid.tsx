/**
 * The dry run's grid: every row of the file under its product, every problem on its cell with its
 * message, cells fixed in place. Virtualised (@tanstack/react-virtual): only the rows in view are in the
 * page, so 10,000 rows scroll like 10.
 */
import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import focus from '@/lib/focus.module.css';
import { memo, useRef, useState, type Ref } from 'react';
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
  rejected: 'red',
  unknown: 'orange',
  skipped: 'gray',
};

/** A product that was sent (or is being sent) is what the platform has: its cells stay as they were. */
const locked = (state: ProductState) => state === 'created' || state === 'sending' || state === 'unknown';

function StatusCell({
  product,
  state,
  status,
  messages,
  onOpenEditor,
  onDecide,
}: {
  product: CheckedProduct;
  state: ProductState;
  status: ProductStatus | undefined;
  messages: readonly string[];
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
      {messages.map((m, i) => (
        <Text key={i} size="xs" c="red">
          {m}
        </Text>
      ))}
      {!locked(state) && (
        <Button
          size="compact-xs"
          variant="subtle"
          onClick={onOpenEditor}
          aria-label={`Open ${product.name || `row ${product.key + 2}`} in the editor`}
        >
          Open in editor
        </Button>
      )}
      {state === 'unknown' &&
        (confirming ? (
          <Group gap={4}>
            <Button size="compact-xs" color="orange" onClick={() => onDecide('send-again')}>
              Not in the catalogue: send again
            </Button>
            <Button size="compact-xs" variant="default" onClick={() => setConfirming(false)}>
              Keep
            </Button>
          </Group>
        ) : (
          <Group gap={4}>
            <Button size="compact-xs" variant="light" color="orange" onClick={() => setConfirming(true)}>
              Decide…
            </Button>
            <Button size="compact-xs" variant="subtle" onClick={() => onDecide('skip')}>
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
  onCommit,
}: {
  label: string;
  text: string;
  fixed: boolean;
  disabled: boolean;
  onCommit: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  if (editing) {
    return (
      <TextInput
        size="xs"
        aria-label={label}
        defaultValue={text}
        // Opened by a click or Enter on the cell: typing goes straight into it.
        ref={(element) => element?.focus()}
        onBlur={(event) => {
          setEditing(false);
          if (event.currentTarget.value !== text) onCommit(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
          if (event.key === 'Escape') {
            event.currentTarget.value = text;
            event.currentTarget.blur();
          }
        }}
      />
    );
  }
  return (
    <button
      type="button"
      className={`${classes.value} ${fixed ? classes.fixed : ''}`}
      disabled={disabled}
      aria-label={`${label}: ${text || 'blank'}${disabled ? '' : ', edit'}`}
      onClick={() => setEditing(true)}
    >
      {text}
    </button>
  );
}

interface RowProps extends Pick<GridProps, 'columns' | 'rows' | 'fixes' | 'problems' | 'onFix' | 'onOpenEditor' | 'onDecide'> {
  index: number;
  start: number;
  measure: Ref<HTMLDivElement>;
  entry: GridRow;
  template: string;
  status: ProductStatus | undefined;
}

/** One row; memoised, so measuring or scrolling re-renders only the rows whose place or content changed. */
const GridRowView = memo(function GridRowView({
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
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-index={index}
      ref={measure}
      className={`${classes.row} ${first ? classes.first : ''}`}
      style={{ gridTemplateColumns: template, transform: `translateY(${start}px)` }}
    >
      <div role="rowheader" className={`${classes.cell} ${classes.sticky}`}>
        <Text size="xs" c="dimmed">
          Row {row + 2}
        </Text>
      </div>
      <div role="cell" className={classes.cell}>
        {first ? (
          <StatusCell
            product={product}
            state={state}
            status={status}
            messages={product.rows.flatMap((r) => problems.get(`${r}:`) ?? [])}
            onOpenEditor={() => onOpenEditor(product)}
            onDecide={(decision) => onDecide(product, decision)}
          />
        ) : null}
      </div>
      {columns.map(({ index: column, column: def }) => {
        const key = `${row}:${column}`;
        const fixed = key in fixes;
        const text = fixed ? (fixes[key] ?? '') : (rows[row]?.[column] ?? '');
        const messages = problems.get(key) ?? [];
        return (
          <div key={column} role="cell" className={`${classes.cell} ${messages.length > 0 ? classes.problem : ''}`}>
            <EditableCell
              label={`Row ${row + 2}, ${def.label}`}
              text={text}
              fixed={fixed}
              disabled={locked(state)}
              onCommit={(value) => onFix(row, column, value, product)}
            />
            {messages.map((m, i) => (
              <span key={i} className={classes.message}>
                {m}
              </span>
            ))}
          </div>
        );
      })}
    </div>
  );
});

export function ImportGrid({ headers, rows, columns, fixes, visible, problems, statuses, onFix, onOpenEditor, onDecide }: GridProps) {
  const scroller = useRef<HTMLDivElement>(null);
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
  const template = `4rem minmax(9rem, 13rem) ${columns.map(() => 'minmax(9rem, 1fr)').join(' ')}`;
  const rowsInView = virtualizer.getVirtualItems().flatMap((item) => {
    const entry = visible[item.index];
    if (!entry) return [];
    return [
      <GridRowView
        key={item.key}
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
      // Focusable: on a phone the rows scroll sideways, and the keyboard must reach them to scroll them
      // (axe's scrollable-region-focusable); the lint rule does not know a table can be a scroll container.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={0}
      className={`${classes.scroller} ${focus.scrollRegion}`}
      role="table"
      aria-label="Rows of the file"
      aria-rowcount={visible.length + 1}
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
