/** The file's columns and the fields they feed: unmatched ones are shown first, to map by hand or ignore. */
import { Alert, Group, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import type { ColumnMatch, ImportColumn } from './columns';
import { WARNING_STYLES } from './warning';

const HOW: Record<ColumnMatch['how'], string> = {
  key: 'by its key',
  label: 'by its name',
  remembered: 'chosen by hand',
  ambiguous: 'its name fits several fields',
  duplicate: 'another column already has this field',
  none: 'no field has this name',
};

/** Rows of the table built per step: each has a list of every field (about 100 options at six currencies). */
const ROWS_PER_STEP = 4;

/**
 * How many rows to show: a few more after each commit, in the background, until all are. Nine columns of
 * 100 options each, built and laid out at once, held the page for 40–80 ms; a template's 80 columns
 * would hold it for far longer. A step of four stays well under 50 ms.
 */
function useGrowingCount(total: number): number {
  const [count, setCount] = useState(ROWS_PER_STEP);
  useEffect(() => {
    if (count < total) startTransition(() => setCount((c) => c + ROWS_PER_STEP));
  }, [count, total]);
  return Math.min(count, total);
}

/** Memoised: the page renders on every answer while creating, and these do not change then. */
export const ColumnsPanel = memo(function ColumnsPanel({
  matches,
  columns,
  onMap,
}: {
  matches: readonly ColumnMatch[];
  columns: readonly ImportColumn[];
  onMap: (index: number, column: string | null) => void;
}) {
  const data = useMemo(
    () => [{ value: '', label: 'Ignore this column' }, ...columns.map((c) => ({ value: c.id, label: `${c.label} (${c.id})` }))],
    [columns],
  );
  const unmatched = matches.flatMap((m, index) => (m.column === null && m.how !== 'remembered' ? [index] : []));
  const order = [...unmatched, ...matches.flatMap((m, index) => (unmatched.includes(index) ? [] : [index]))];
  const shown = useGrowingCount(order.length);
  return (
    <Stack gap="xs">
      {unmatched.length > 0 && (
        <Alert
          color="yellow"
          styles={WARNING_STYLES}
          title={
            unmatched.length === 1 ? '1 column of the file matches no field' : `${unmatched.length} columns of the file match no field`
          }
        >
          Choose a field for each, or leave it ignored: an ignored column is not sent. Your choice is remembered for this site.
        </Alert>
      )}
      {/* A plain scrolling box: Mantine's ScrollArea measured itself for ~170 ms here on every new file. */}
      <div style={{ maxHeight: 280, overflow: 'auto' }}>
        <Table striped stickyHeader miw={420}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column of the file</Table.Th>
              <Table.Th>Field</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.slice(0, shown).map((index) => {
              const match = matches[index];
              if (!match) return null;
              return (
                <Table.Tr key={index}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {match.header || `(column ${index + 1}, no header)`}
                    </Text>
                    <Text size="xs" c={match.column === null && match.how !== 'remembered' ? 'var(--mantine-color-error)' : 'dimmed'}>
                      {match.column === null && match.how === 'remembered' ? 'ignored, chosen by hand' : HOW[match.how]}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group>
                      {/* The browser's own list: nine searchable comboboxes of 70 fields each took ~200 ms to mount. */}
                      <NativeSelect
                        aria-label={`Field for column ${match.header || index + 1}`}
                        data={data}
                        value={match.column ?? ''}
                        onChange={(event) => onMap(index, event.currentTarget.value || null)}
                        size="xs"
                        w={320}
                      />
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </div>
    </Stack>
  );
});
