/**
 * The inbox's rows: a virtualised list (@tanstack/react-virtual) of links, one a case, newest first. Only
 * the rows near the screen are in the page; a row whose page has not arrived yet shows as loading. One Tab
 * stop: the arrow keys, Page Up/Down, Home and End move between rows (the row reached is scrolled to and
 * rendered first), Enter opens the case.
 */
import { Skeleton } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { FormCase } from '@/contract/site-api';
import type { Href } from '@/lib/paths';
import { Link } from '@/lib/router';
import hidden from '@/lib/visually-hidden.module.css';
import { DateTime } from '@/lib/date-time';
import { caseIdentity } from './case-identity';
import { caseIdOf, cellText, propertiesOf, type InboxColumn } from './inbox-columns';
import classes from './inbox.module.css';

interface InboxListProps {
  form: string;
  /** Rows in the whole list (as far as is known). */
  count: number;
  /** The case of row `index`, or undefined while its page is on its way. */
  rowAt: (index: number) => FormCase | undefined;
  columns: readonly InboxColumn[];
  /** Where row `index` opens. */
  hrefOf: (index: number, id: string) => Href<'case'>;
  /** The row to start at (a link's `at`), scrolled to once. */
  initialIndex: number;
  /** The rows on screen changed: their pages are wanted. */
  onRange: (first: number, last: number) => void;
  /** A row is opened: the address keeps the position. */
  onOpen: (index: number) => void;
  label: string;
}

/** A row's height before it is measured (one line of cells); the phone's stacked rows are measured. */
const ROW_ESTIMATE = 44;

export function InboxList({ form, count, rowAt, columns, hrefOf, initialIndex, onRange, onOpen, label }: InboxListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
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

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const page = Math.max(Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_ESTIMATE) - 1, 1);
    const to = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: count - 1 }[
      event.key
    ];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    move(to);
  };

  return (
    <div className={classes.table}>
      <div className={classes.head} aria-hidden="true">
        <span>Received</span>
        {columns.map((column) => (
          <span key={column.key}>{column.label}</span>
        ))}
      </div>
      {/* The list scrolls in its own box, so the rows' virtualisation needs no knowledge of the page around it. */}
      <div ref={scrollRef} className={classes.scroller}>
        <div role="list" aria-label={label} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const record = rowAt(item.index);
            const id = record ? caseIdOf(record) : null;
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
                {record && id !== null ? (
                  <Link
                    to={hrefOf(item.index, id)}
                    data-row=""
                    tabIndex={item.index === active ? 0 : -1}
                    className={classes.row}
                    onFocus={() => setActive(item.index)}
                    onKeyDown={onKeyDown}
                    onClick={() => onOpen(item.index)}
                  >
                    <Cells form={form} record={record} id={id} columns={columns} />
                  </Link>
                ) : (
                  // A row on its way takes no focus: the keyboard's move lands on it once its case is here.
                  <div className={classes.row}>
                    <span className={hidden.visuallyHidden}>Loading case {item.index + 1}…</span>
                    <Skeleton height={14} width="60%" aria-hidden="true" />
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

function Cells({ form, record, id, columns }: { form: string; record: FormCase; id: string; columns: readonly InboxColumn[] }) {
  const submitted = caseIdentity(record, form, id).submitted;
  const properties = propertiesOf(record);
  return (
    <>
      <span className={classes.cell}>
        <span className={hidden.visuallyHidden}>Received </span>
        {submitted ? <DateTime date={submitted.date} dateOnly={submitted.dateOnly} /> : `Case ${id}`}
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
    </>
  );
}
