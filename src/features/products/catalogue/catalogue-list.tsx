/**
 * The catalogue's rows: a virtualised list (@tanstack/react-virtual, as the case inbox), one row a product,
 * each a link to the product in the editor. Only the rows near the screen are in the page, each plain
 * elements (no Mantine component per row). One Tab stop for the rows: the arrow keys, Page Up/Down, Home
 * and End move between them, Enter opens one.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Currency } from '@/contract/site-api';
import { DateTime } from '@/lib/date-time';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import hidden from '@/lib/visually-hidden.module.css';
import type { PriceDecimals } from '../model/money';
import { dateOf, priceText, type CatalogueProduct } from './catalogue-rows';
import classes from './catalogue.module.css';

interface CatalogueListProps {
  /** Rows in the whole list (as far as is known). */
  count: number;
  /** Row `index`, or undefined while its page is on its way. */
  rowAt: (index: number) => CatalogueProduct | undefined;
  /** The row to start at (a link's `at`), scrolled to once. */
  initialIndex: number;
  /** The rows on screen changed: their pages are wanted. */
  onRange: (first: number, last: number) => void;
  /** A row is opened: the address keeps the position. */
  onOpen: (index: number) => void;
  money: { currency: Currency; decimals: PriceDecimals; locale: string };
  label: string;
}

/** A row's height before it is measured (one line of cells); the phone's stacked rows are measured. */
const ROW_ESTIMATE = 44;

export function CatalogueList({ count, rowAt, initialIndex, onRange, onOpen, money, label }: CatalogueListProps) {
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
      const end = Math.min(range.endIndex + range.overscan, range.count - 1);
      for (let i = Math.max(range.startIndex - range.overscan, 0); i <= end; i += 1) indexes.push(i);
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

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const page = Math.max(Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_ESTIMATE) - 1, 1);
    const to = { ArrowDown: active + 1, ArrowUp: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: count - 1 }[
      event.key
    ];
    if (to === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(count - 1, to));
    focusWanted.current = true;
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  // The rows are memoised (scrolling renders only the rows that come on screen), so what they call goes
  // through a ref that always holds this render's handlers.
  const latest = useRef({ onKeyDown, onOpen });
  useLayoutEffect(() => {
    latest.current = { onKeyDown, onOpen };
  });
  const handlers = useMemo<RowHandlers>(
    () => ({
      keyDown: (event) => latest.current.onKeyDown(event),
      open: (index) => latest.current.onOpen(index),
      focus: (index) => setActive(index),
    }),
    [],
  );

  return (
    <div className={classes.table}>
      <div className={`${classes.cells} ${classes.head}`} aria-hidden="true">
        <span>Name</span>
        <span>Slug</span>
        <span>Status</span>
        <span className={classes.number}>Price ({money.currency.toUpperCase()})</span>
        <span>Release</span>
        <span>Expiry</span>
      </div>
      {/* The list scrolls in its own box, so the rows' virtualisation needs no knowledge of the page around it. */}
      <div ref={scrollRef} className={classes.scroller}>
        <div role="list" aria-label={label} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const product = rowAt(item.index);
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
                {product ? (
                  <Row index={item.index} product={product} active={item.index === active} money={money} handlers={handlers} />
                ) : (
                  // A row on its way takes no focus: the keyboard's move lands on it once its product is here.
                  <div className={classes.row}>
                    <span className={classes.loading}>
                      <span className={hidden.visuallyHidden}>Loading product {item.index + 1}…</span>
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
  keyDown: (event: KeyboardEvent<HTMLElement>) => void;
  open: (index: number) => void;
  focus: (index: number) => void;
}

interface RowProps {
  index: number;
  product: CatalogueProduct;
  /** The row with the list's Tab stop. */
  active: boolean;
  money: CatalogueListProps['money'];
  handlers: RowHandlers;
}

/** One row, a link to the product; rendered again only when its product or the Tab stop changes. */
const Row = memo(function Row({ index, product, active, money, handlers }: RowProps) {
  const price = priceText(product.price, money.currency, money.decimals, money.locale);
  return (
    <Link
      to={pathTo('catalogueProduct', { id: product.id })}
      data-row=""
      tabIndex={active ? 0 : -1}
      className={`${classes.cells} ${classes.row} ${classes.link}`}
      onFocus={() => handlers.focus(index)}
      onKeyDown={handlers.keyDown}
      onClick={() => handlers.open(index)}
    >
      <span className={`${classes.cell} ${classes.name} ${classes.wide}`}>
        {product.name || <span className={classes.empty}>Unnamed product</span>}
      </span>
      <span className={`${classes.cell} ${classes.wide}`}>
        <span className={hidden.visuallyHidden}>, Slug: </span>
        {product.slug || <span className={classes.empty}>—</span>}
      </span>
      <span className={classes.cell}>
        <span className={hidden.visuallyHidden}>, </span>
        {product.enabled === null ? (
          <span className={classes.empty}>—</span>
        ) : (
          <span className={classes.badge} data-enabled={product.enabled}>
            {product.enabled ? 'Enabled' : 'Disabled'}
          </span>
        )}
      </span>
      <span className={`${classes.cell} ${classes.number}`}>
        <span className={hidden.visuallyHidden}>, Price: </span>
        {price || <span className={classes.empty}>—</span>}
      </span>
      <DateCell label="Release" value={product.release} locale={money.locale} className={classes.release} />
      <DateCell label="Expiry" value={product.expiry} locale={money.locale} className={classes.expiry} />
    </Link>
  );
});

function DateCell({
  label,
  value,
  locale,
  className,
}: {
  label: string;
  value: CatalogueProduct['release'];
  locale: string;
  className?: string;
}) {
  const date = dateOf(value);
  return (
    <span className={`${classes.cell} ${className ?? ''}`}>
      <span className={hidden.visuallyHidden}>{`, ${label}: `}</span>
      {date ? <DateTime date={date} locale={locale} /> : value === null ? <span className={classes.empty}>—</span> : String(value)}
    </span>
  );
}
