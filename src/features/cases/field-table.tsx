import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import {
  memo,
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type ReactNode,
  type Ref,
  type RefObject,
} from 'react';
import { stringifyExactJson } from '@/lib/exact-json';
import type { FieldRow, FieldSection } from './case-fields';
import { Revealed } from './revealed-text';
import { tableRows, type TableRow } from './table-rows';
import { ValueView } from './value-view';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './cases.module.css';

/** The text a value's copy button copies: strings as they are, anything else as JSON, numbers as written. */
export function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  return stringifyExactJson(value, 2);
}

/**
 * Rows rendered past each edge of the screen. Tab moves to the next row's links and Copy button while
 * they are still off screen; the browser scrolls them into view, and the rows after them follow.
 */
const OVERSCAN = 6;

/**
 * A table of up to this many rows renders all of them, as the viewer did before it had a virtual list:
 * most cases are this small, and then the browser's find, printing and a full-page screenshot see every
 * field. Rendered in one piece they cost one commit of a few dozen rows.
 */
const RENDER_ALL_UP_TO = 60;

interface RowProps {
  row: FieldRow;
  rowKey: string;
  index: number;
  measure: Ref<HTMLTableRowElement>;
  copied: boolean;
  onCopy: (row: FieldRow) => void;
}

// Plain elements: Mantine's table cells, texts and buttons cost several hooks a row, and a screenful of
// rows is rendered again with every change of the filter.
const FieldTableRow = memo(function FieldTableRow({ row, rowKey, index, measure, copied, onCopy }: RowProps) {
  return (
    <tr ref={measure} data-index={index} data-key={rowKey} aria-rowindex={index + 2} className={classes.row}>
      <th scope="row" className={classes.fieldCell}>
        <div className={classes.fieldName}>
          <span className={classes.fieldLabel}>
            <Revealed text={row.label} />
          </span>{' '}
          <code className={classes.keyCode}>
            <Revealed text={row.key} />
          </code>
        </div>
      </th>
      <td className={classes.valueCell}>
        <ValueView value={row.value} fieldKey={row.key} label={row.label} stateKey={`value:${row.path}`} />
      </td>
      <td className={classes.copyCell}>
        <button
          type="button"
          className={classes.copyButton}
          data-copied={copied || undefined}
          onClick={() => onCopy(row)}
          aria-label={copied ? `Copied value of ${row.label}` : `Copy value of ${row.label} (${row.key})`}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </td>
    </tr>
  );
});

/** A section's title, a row of its own. */
function TitleRow({ title, rowKey, index, measure }: Pick<RowProps, 'rowKey' | 'index' | 'measure'> & { title: string }) {
  return (
    <tr ref={measure} data-index={index} data-key={rowKey} aria-rowindex={index + 2} className={classes.sectionRow}>
      <th scope="colgroup" colSpan={3}>
        {title}
      </th>
    </tr>
  );
}

/** The height of the rows that are not rendered, above or below those that are; not for assistive technology. */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className={classes.spacer} style={{ height }}>
      <td colSpan={3} />
    </tr>
  );
}

/**
 * Where the table's rows start, from the top of the page (the virtualizer's scroll margin). Anything
 * above the table that grows or shrinks (a note under the lookup boxes, a line that wraps on a narrower
 * window) changes the size of the page too, so the page's size is watched. The rows follow in a
 * transition of their own: putting a case on screen is then a few tasks, none near 50 ms, rather than
 * one that renders the case and its rows and lays the page out twice.
 */
function useRowsTop(table: RefObject<HTMLTableElement | null>): number | null {
  const [top, setTop] = useState<number | null>(null);
  useEffect(() => {
    const element = table.current;
    if (!element) return;
    const measure = () => {
      const body = element.tBodies[0];
      if (!body) return;
      const next = Math.round(body.getBoundingClientRect().top + window.scrollY);
      startTransition(() => setTop((was) => (was === next ? was : next)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [table]);
  return top;
}

/**
 * The rows to render: those in and near view, and the row holding the keyboard focus with its
 * neighbours, wherever it is, so that scrolling away never drops the focus and Tab goes on from it.
 */
function withFocused(range: Range, focused: number): number[] {
  const indexes = defaultRangeExtractor(range);
  if (focused < 0) return indexes;
  const extra = [focused - 1, focused, focused + 1].filter((index) => index >= 0 && index < range.count && !indexes.includes(index));
  return extra.length === 0 ? indexes : [...indexes, ...extra].sort((a, b) => a - b);
}

const keepScroll = () => false;

export interface FieldTableProps {
  sections: readonly FieldSection[];
  /** Show each section's title as a heading row (when there is more than one). */
  withSectionTitles: boolean;
}

/**
 * Every field as a compact row: its label and raw key on one line where they fit, the value, and a Copy
 * button that shows on hover and focus (always, on touch screens) and is always in the tab order. In a
 * narrow column (a phone, or a tablet beside the navigation) each row stacks: name and Copy above the value.
 *
 * Only the rows on and near the screen are in the page; rows above and below are held by a spacer of
 * their height (TanStack Virtual, scrolling with the window; each rendered row is measured, so rows of
 * any height, and a value opened with "Show all", take their real place). Why, measured on an 800-field
 * case with bench/cases.ts: with every row in the page, put there in batches of 40 then 60 per task,
 * a filter keystroke took 73 ms at p95 (a bare input: 18 ms) and letting the rows back in after a query
 * was a task of 130 ms; batches of 20, `content-visibility: auto` on the rows and the filter hiding rows
 * rather than removing them still gave 52 ms and 132 ms, and 153 ms from the answer to the first rows.
 * With only the rows near the screen, keystrokes are within a few ms of the bare input's, no task
 * reaches 50 ms, and the first rows are up about 100 ms after the answer on the same loaded machine.
 *
 * The price, for a case of more than RENDER_ALL_UP_TO rows: the browser's own find (Ctrl+F) sees only
 * the rows in the page. The filter is the find: it looks in every field's key, label and value and
 * leaves only the rows that match. For assistive
 * technology the table says how many rows it has (aria-rowcount) and where each rendered row is
 * (aria-rowindex).
 */
export const FieldTable = memo(function FieldTable({ sections, withSectionTitles }: FieldTableProps) {
  // One clipboard handler for all rows, stable, so that copying re-renders only the row concerned.
  const [copiedPath, setCopiedPath] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const onCopy = useCallback((row: FieldRow) => {
    navigator.clipboard.writeText(copyText(row.value)).then(
      () => {
        setCopiedPath(row.path);
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(() => setCopiedPath(null), 2000);
      },
      () => setCopiedPath(null),
    );
  }, []);

  const rows = useMemo(() => tableRows(sections, withSectionTitles), [sections, withSectionTitles]);
  const table = useRef<HTMLTableElement>(null);
  // Until the table is in the page, where its rows start is not known: no rows are rendered then (rows
  // for the wrong part of the window would be made and dropped again before the first paint).
  const rowsTop = useRowsTop(table);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const focused = useMemo(() => (focusedKey === null ? -1 : rows.findIndex((row) => row.key === focusedKey)), [rows, focusedKey]);
  const estimateSize = useCallback((index: number) => rows[index]?.estimate ?? 0, [rows]);
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const rangeExtractor = useCallback((range: Range) => withFocused(range, focused), [focused]);
  const virtualizer = useWindowVirtualizer<HTMLTableRowElement>({
    count: rows.length,
    estimateSize,
    getItemKey,
    rangeExtractor,
    overscan: rows.length <= RENDER_ALL_UP_TO ? rows.length : OVERSCAN,
    scrollMargin: rowsTop ?? 0,
    enabled: rowsTop !== null,
    // The window's size at once, so that the first render with rows holds the first screen of them.
    initialRect: { width: window.innerWidth, height: window.innerHeight },
  });
  // The rows are in the page's flow, so when a row above the screen turns out taller or shorter than
  // its guess, the browser's own scroll anchoring keeps what is on screen in place; the virtualizer's
  // correction would move it a second time (and from the scroll position it last heard of, which lags
  // a programmatic scroll by an event). Set before any row is measured: the first rows come after the
  // table's first commit (useRowsTop).
  useLayoutEffect(() => {
    // The virtualizer takes this setting as a property of its instance only, not as an option.
    // eslint-disable-next-line react-hooks/immutability
    virtualizer.shouldAdjustScrollPositionOnItemSizeChange = keepScroll;
  }, [virtualizer]);

  const onFocus = (event: FocusEvent<HTMLTableElement>) => {
    const target = event.target instanceof Element ? event.target.closest<HTMLElement>('tr[data-key]') : null;
    setFocusedKey(target?.dataset.key ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLTableElement>) => {
    if (!(event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget))) setFocusedKey(null);
  };

  // The rendered rows in their sections' row groups, with spacers for the rows between and around them.
  const groups: { id: string; rows: ReactNode[] }[] = [];
  const groupOf = (id: string) => {
    const last = groups[groups.length - 1];
    if (last?.id === id) return last;
    const group = { id, rows: [] as ReactNode[] };
    groups.push(group);
    return group;
  };
  const top = rowsTop ?? 0;
  let end = top;
  for (const item of rowsTop === null ? [] : virtualizer.getVirtualItems()) {
    const row: TableRow | undefined = rows[item.index];
    if (!row) continue;
    const group = groupOf(row.section.id);
    if (item.start - end >= 1) group.rows.push(<Spacer key={`space:${row.key}`} height={item.start - end} />);
    group.rows.push(
      row.kind === 'title' ? (
        <TitleRow key={row.key} title={row.section.title} rowKey={row.key} index={item.index} measure={virtualizer.measureElement} />
      ) : (
        <FieldTableRow
          key={row.key}
          row={row.row}
          rowKey={row.key}
          index={item.index}
          measure={virtualizer.measureElement}
          copied={copiedPath === row.row.path}
          onCopy={onCopy}
        />
      ),
    );
    end = item.end;
  }
  const rest = top + virtualizer.getTotalSize() - end;
  if (rest >= 1) (groups[groups.length - 1] ?? groupOf('space')).rows.push(<Spacer key="space:end" height={rest} />);
  // The first row group is where the rows start (useRowsTop measures it): there is always one.
  if (groups.length === 0) groupOf('space');

  return (
    <div className={classes.fieldsBox}>
      <table ref={table} className={classes.fields} aria-rowcount={rows.length + 1} onFocus={onFocus} onBlur={onBlur}>
        <thead className={classes.fieldsHead}>
          <tr aria-rowindex={1}>
            <th scope="col" className={classes.fieldColumn}>
              Field
            </th>
            <th scope="col">Value</th>
            <th scope="col" className={classes.copyColumn}>
              <span className={hidden.visuallyHidden}>Copy</span>
            </th>
          </tr>
        </thead>
        {groups.map((group) => (
          <tbody key={group.id}>{group.rows}</tbody>
        ))}
      </table>
    </div>
  );
});
