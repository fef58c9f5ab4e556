import { VisuallyHidden } from '@mantine/core';
import { memo, startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { stringifyExactJson } from '@/lib/exact-json';
import { countRows, firstRows, type FieldRow, type FieldSection } from './case-fields';
import { Revealed } from './revealed-text';
import { ValueView } from './value-view';
import classes from './cases.module.css';

/** The text a value's copy button copies: strings as they are, anything else as JSON, numbers as written. */
export function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  return stringifyExactJson(value, 2);
}

/** Rows put on the page at once; the rest follow in batches, each in its own task. */
const FIRST_ROWS = 40;
const MORE_ROWS = 60;

/**
 * How many rows to render: the first screenful at once, then a batch per task until all are there, so a
 * case of hundreds of fields never holds the page in one long task (and typing in the filter goes first:
 * the batches are transitions). Every row is in the page once it settles, for the browser's own find.
 */
function useRowLimit(total: number): number {
  const [limit, setLimit] = useState(FIRST_ROWS);
  useEffect(() => {
    if (limit >= total) return;
    const timer = window.setTimeout(() => startTransition(() => setLimit((was) => was + MORE_ROWS)), 0);
    return () => window.clearTimeout(timer);
  }, [limit, total]);
  return limit;
}

interface RowProps {
  row: FieldRow;
  copied: boolean;
  onCopy: (row: FieldRow) => void;
}

// Plain elements: hundreds of rows each with Mantine's table cells, texts and buttons measurably slow a
// large case down.
const FieldTableRow = memo(function FieldTableRow({ row, copied, onCopy }: RowProps) {
  return (
    <tr className={classes.row}>
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
        <ValueView value={row.value} fieldKey={row.key} label={row.label} />
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

interface FieldTableProps {
  sections: readonly FieldSection[];
  /** Show each section's title as a heading row (when there is more than one). */
  withSectionTitles: boolean;
}

/**
 * Every field as a compact row: its label and raw key on one line where they fit, the value, and a Copy
 * button that shows on hover and focus (always, on touch screens) and is always in the tab order. In a
 * narrow column (a phone, or a tablet beside the navigation) each row stacks: name and Copy above the value.
 */
export function FieldTable({ sections, withSectionTitles }: FieldTableProps) {
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
  const limit = useRowLimit(countRows(sections));
  return (
    <div className={classes.fieldsBox}>
      <table className={classes.fields}>
        <thead className={classes.fieldsHead}>
          <tr>
            <th scope="col" className={classes.fieldColumn}>
              Field
            </th>
            <th scope="col">Value</th>
            <th scope="col" className={classes.copyColumn}>
              <VisuallyHidden>Copy</VisuallyHidden>
            </th>
          </tr>
        </thead>
        {firstRows(sections, limit).map((section) => (
          <tbody key={section.id}>
            {withSectionTitles && (
              <tr className={classes.sectionRow}>
                <th scope="colgroup" colSpan={3}>
                  {section.title}
                </th>
              </tr>
            )}
            {section.rows.map((row) => (
              <FieldTableRow key={row.path} row={row} copied={copiedPath === row.path} onCopy={onCopy} />
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
