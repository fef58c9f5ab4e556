/**
 * The inbox's rows: a virtualised list (@tanstack/react-virtual), one row a case, newest first, each a
 * checkbox and a link to the case. Only the rows near the screen are in the page, and each is plain
 * elements (no Mantine component per row: at a few dozen rows on screen they cost more than the rows'
 * own text). One Tab stop for the rows (and one for the active row's checkbox): the arrow keys, Page
 * Up/Down, Home and End move between rows, Enter opens the case, Space selects it (Shift+Space: every row
 * from the last one selected).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { CASE_STATUS_LABELS } from '@/contract/case-work';
import type { Href } from '@/lib/paths';
import { Link } from '@/lib/router';
import hidden from '@/lib/visually-hidden.module.css';
import { DateTime } from '@/lib/date-time';
import { cellText, propertiesOf, type InboxColumn } from './inbox-columns';
import type { InboxRow } from './inbox-rows';
import classes from './inbox.module.css';

interface InboxListProps {
  /** Rows in the whole list (as far as is known). */
  count: number;
  /** Row `index`, or undefined while its page is on its way. */
  rowAt: (index: number) => InboxRow | undefined;
  columns: readonly InboxColumn[];
  /** Where row `index` opens. */
  hrefOf: (index: number, id: string) => Href<'case'>;
  /** The row to start at (a link's `at`), scrolled to once. */
  initialIndex: number;
  /** The rows on screen changed: their pages are wanted. */
  onRange: (first: number, last: number) => void;
  /** A row is opened: the address keeps the position. */
  onOpen: (index: number) => void;
  selected: ReadonlySet<string>;
  /** Row `index` ticked or unticked; `extend`: every row from the last one ticked, as it. */
  onToggle: (index: number, extend: boolean) => void;
  /** The header's checkbox: all rows read, or none. */
  allState: 'all' | 'some' | 'none';
  allLabel: string;
  onToggleAll: () => void;
  label: string;
}

/** A row's height before it is measured (one line of cells); the phone's stacked rows are measured. */
const ROW_ESTIMATE = 44;

export function InboxList(props: InboxListProps) {
  const { count, rowAt, columns, hrefOf, initialIndex, onRange, onOpen, selected, onToggle, label } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const allRef = useRef<HTMLInputElement>(null);
  const [active, setActive] = useState(() => Math.min(initialIndex, Math.max(count - 1, 0)));
  const focusWanted = useRef(false);
  // The virtualizer's functions change as it measures: this component is left out of the React Compiler's memoising.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
    // The box's usual height (36rem) before it is measured, so the first render with rows holds a screen of them.
    initialRect: { width: 0, height: 576 },
    // The focused row stays rendered, so the keyboard never loses its place while the list scrolls.
    rangeExtractor: (range) => {
      const indexes: number[] = [];
      for (
        let i = Math.max(range.startIndex - range.overscan, 0);
        i <= Math.min(range.endIndex + range.overscan, range.count - 1);
        i += 1
      ) {
        indexes.push(i);
      }
      if (active < range.count && !indexes.includes(active)) indexes.push(active);
      return indexes.sort((a, b) => a - b);
    },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (count > 0) onRange(first, last);
  }, [first, last, count, onRange]);

  useEffect(() => {
    if (allRef.current) allRef.current.indeterminate = props.allState === 'some';
  }, [props.allState]);

  // A link's position is shown once, when the list first has rows.
  const scrolledTo = useRef(false);
  useEffect(() => {
    if (scrolledTo.current || count === 0) return;
    scrolledTo.current = true;
    if (initialIndex > 0) virtualizer.scrollToIndex(Math.min(initialIndex, count - 1), { align: 'center' });
  }, [count, initialIndex, virtualizer]);

  useEffect(() => {
    if (!focusWanted.current) return;
    const row = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${active}"] [data-row]`);
    if (row) {
      focusWanted.current = false;
      row.focus();
    }
  });

  const move = (to: number) => {
    const next = Math.max(0, Math.min(count - 1, to));
    focusWanted.current = true;
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === ' ' && event.currentTarget.tagName === 'A') {
      // Space on a row selects it, as it would its checkbox (a link has no use for Space but scrolling).
      event.preventDefault();
      onToggle(index, event.shiftKey);
      return;
    }
    const page = Math.max(Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_ESTIMATE) - 1, 1);
    const to = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: count - 1 }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    move(to);
  };

  // The rows are memoised (scrolling renders only the rows that come on screen, not every row again), so
  // what they call goes through a ref that always holds this render's handlers.
  const latest = useRef({ onKeyDown, onToggle, onOpen });
  useLayoutEffect(() => {
    latest.current = { onKeyDown, onToggle, onOpen };
  });
  const handlers = useMemo<RowHandlers>(
    () => ({
      keyDown: (index, event) => latest.current.onKeyDown(index, event),
      toggle: (index, extend) => latest.current.onToggle(index, extend),
      open: (index) => latest.current.onOpen(index),
      focus: (index) => setActive(index),
    }),
    [],
  );

  return (
    <div className={classes.table}>
      <div className={classes.head}>
        <input
          ref={allRef}
          type="checkbox"
          className={classes.check}
          aria-label={props.allLabel}
          checked={props.allState === 'all'}
          onChange={props.onToggleAll}
          disabled={count === 0}
        />
        <div className={classes.cells} aria-hidden="true">
          <span>Received</span>
          {columns.map((column) => (
            <span key={column.key}>{column.label}</span>
          ))}
          <span>Status</span>
          <span>Assignee</span>
        </div>
      </div>
      {/* The list scrolls in its own box, so the rows' virtualisation needs no knowledge of the page around it. */}
      <div ref={scrollRef} className={classes.scroller}>
        <div role="list" aria-label={label} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            const isSelected = row !== undefined && selected.has(row.id);
            return (
              <div
                key={item.key}
                role="listitem"
                aria-setsize={count}
                aria-posinset={item.index + 1}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={classes.item}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row ? (
                  <Row
                    index={item.index}
                    row={row}
                    selected={isSelected}
                    active={item.index === active}
                    href={hrefOf(item.index, row.id)}
                    columns={columns}
                    handlers={handlers}
                  />
                ) : (
                  // A row on its way takes no focus: the keyboard's move lands on it once its case is here.
                  <div className={classes.row}>
                    <span />
                    <span className={classes.loading}>
                      <span className={hidden.visuallyHidden}>Loading case {item.index + 1}…</span>
                    </span>
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

interface RowHandlers {
  keyDown: (index: number, event: KeyboardEvent<HTMLElement>) => void;
  toggle: (index: number, extend: boolean) => void;
  open: (index: number) => void;
  focus: (index: number) => void;
}

interface RowProps {
  index: number;
  row: InboxRow;
  selected: boolean;
  /** The row with the list's Tab stop. */
  active: boolean;
  href: Href<'case'>;
  columns: readonly InboxColumn[];
  handlers: RowHandlers;
}

/** One row: its checkbox and its link; rendered again only when its case, work, selection or Tab stop changes. */
const Row = memo(function Row({ index, row, selected, active, href, columns, handlers }: RowProps) {
  return (
    <div className={classes.row} data-selected={selected || undefined}>
      <input
        type="checkbox"
        className={classes.check}
        aria-label={`Select case ${row.id}`}
        checked={selected}
        tabIndex={active ? 0 : -1}
        onFocus={() => handlers.focus(index)}
        onKeyDown={(event) => handlers.keyDown(index, event)}
        onChange={(event) => handlers.toggle(index, (event.nativeEvent as MouseEvent).shiftKey)}
      />
      <Link
        to={href}
        data-row=""
        tabIndex={active ? 0 : -1}
        className={`${classes.cells} ${classes.link}`}
        onFocus={() => handlers.focus(index)}
        onKeyDown={(event) => handlers.keyDown(index, event)}
        onClick={() => handlers.open(index)}
      >
        <Cells row={row} columns={columns} />
      </Link>
    </div>
  );
});

function Cells({ row, columns }: { row: InboxRow; columns: readonly InboxColumn[] }) {
  const properties = propertiesOf(row.record);
  const work = row.work;
  return (
    <>
      <span className={classes.cell}>
        <span className={hidden.visuallyHidden}>Received </span>
        {row.received ? <DateTime date={row.received.date} dateOnly={row.received.dateOnly} /> : `Case ${row.id}`}
        {row.isNew && (
          <span className={classes.newMark}>
            <span className={hidden.visuallyHidden}>, </span>New<span className={hidden.visuallyHidden}> to you</span>
          </span>
        )}
      </span>
      {columns.map((column) => {
        const text = cellText(properties[column.key]);
        return (
          <span key={column.key} className={classes.cell}>
            <span className={hidden.visuallyHidden}>{`, ${column.label}: `}</span>
            {text === '' ? <span className={classes.empty}>—</span> : text}
          </span>
        );
      })}
      <span className={classes.cell}>
        <span className={hidden.visuallyHidden}>, Status: </span>
        {work ? <span data-status={work.status}>{CASE_STATUS_LABELS[work.status]}</span> : <span className={classes.empty}>…</span>}
      </span>
      <span className={classes.cell}>
        <span className={hidden.visuallyHidden}>, Assignee: </span>
        {work?.assignee ? work.assignee.name : <span className={classes.empty}>{work ? 'Nobody' : '…'}</span>}
      </span>
    </>
  );
}
