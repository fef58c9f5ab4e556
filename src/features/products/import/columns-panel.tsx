/** The file's columns and the fields they feed: unmatched ones are shown first, to map by hand or ignore. */
import { Alert, Group, Select, Stack, Table, Text } from '@mantine/core';
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

export function ColumnsPanel({ matches, columns, onMap }: { matches: readonly ColumnMatch[]; columns: readonly ImportColumn[]; onMap: (index: number, column: string | null) => void }) {
  const data = [{ value: '', label: 'Ignore this column' }, ...columns.map((c) => ({ value: c.id, label: `${c.label} (${c.id})` }))];
  const unmatched = matches.flatMap((m, index) => (m.column === null && m.how !== 'remembered' ? [index] : []));
  const order = [...unmatched, ...matches.flatMap((m, index) => (unmatched.includes(index) ? [] : [index]))];
  return (
    <Stack gap="xs">
      {unmatched.length > 0 && (
        <Alert color="yellow" styles={WARNING_STYLES} title={unmatched.length === 1 ? '1 column of the file matches no field' : `${unmatched.length} columns of the file match no field`}>
          Choose a field for each, or leave it ignored: an ignored column is not sent. Your choice is remembered for
          this site.
        </Alert>
      )}
      <Table.ScrollContainer minWidth={420} maxHeight={280}>
        <Table striped stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column of the file</Table.Th>
              <Table.Th>Field</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.map((index) => {
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
                      <Select
                        aria-label={`Field for column ${match.header || index + 1}`}
                        data={data}
                        value={match.column ?? ''}
                        onChange={(value) => onMap(index, value ? value : null)}
                        searchable
                        allowDeselect={false}
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
      </Table.ScrollContainer>
    </Stack>
  );
}
