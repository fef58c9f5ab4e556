import { Code, Table, Text, VisuallyHidden } from '@mantine/core';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { stringifyExactJson } from '@/lib/exact-json';
import type { FieldRow, FieldSection } from './case-fields';
import { ValueView } from './value-view';
import classes from './cases.module.css';

/** The text a value's copy button copies: strings as they are, anything else as JSON, numbers as written. */
export function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  return stringifyExactJson(value, 2);
}

interface RowProps {
  row: FieldRow;
  copied: boolean;
  onCopy: (row: FieldRow) => void;
}

// A plain button: hundreds of rows each with a full Mantine Button measurably slow a large case down.
const FieldTableRow = memo(function FieldTableRow({ row, copied, onCopy }: RowProps) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={500} className={classes.wrap}>
        <div>{row.label}</div>
        <Code className={classes.keyCode}>{row.key}</Code>
      </Table.Th>
      <Table.Td className={classes.wrap}>
        <ValueView value={row.value} fieldKey={row.key} label={row.label} />
      </Table.Td>
      <Table.Td>
        <button
          type="button"
          className={classes.copyButton}
          onClick={() => onCopy(row)}
          aria-label={copied ? `Copied value of ${row.label}` : `Copy value of ${row.label} (${row.key})`}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </Table.Td>
    </Table.Tr>
  );
});

interface FieldTableProps {
  sections: readonly FieldSection[];
  /** Show each section's title as a heading row (when there is more than one). */
  withSectionTitles: boolean;
}

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
  return (
    <Table layout="fixed" verticalSpacing="sm" highlightOnHover>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col" w="30%">
            Field
          </Table.Th>
          <Table.Th scope="col">Value</Table.Th>
          <Table.Th scope="col" w={90}>
            <VisuallyHidden>Copy</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      {sections.map((section) => (
        <Table.Tbody key={section.id}>
          {withSectionTitles && (
            <Table.Tr className={classes.sectionRow}>
              <Table.Th scope="colgroup" colSpan={3}>
                <Text fw={650} size="sm">
                  {section.title}
                </Text>
              </Table.Th>
            </Table.Tr>
          )}
          {section.rows.map((row) => (
            <FieldTableRow key={row.path} row={row} copied={copiedPath === row.path} onCopy={onCopy} />
          ))}
        </Table.Tbody>
      ))}
    </Table>
  );
}
