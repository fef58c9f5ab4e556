/**
 * A product's change as a table, field by field: where and which field (the site's labels), what it was
 * and what it became, as the person reads the values (prices in the site's decimals, dates in their time
 * zone), and what kind of change (changed, added, disabled, re-enabled). The same table shows what an
 * update changed, what reverting it would send, and, when a revert is refused, what changed since.
 */
import { Badge, Table, Text } from '@mantine/core';
import type { ProductChange, ProductChangeKind } from '@/features/products/model/product-diff';
import type { ChangedSince } from '@/features/products/model/revert';

const KIND_COLORS: Record<ProductChangeKind, string> = { changed: 'blue', added: 'teal', disabled: 'orange', 're-enabled': 'teal' };

/** An empty value in words, so that a cleared field does not read as a blank cell. */
const shown = (value: string) =>
  value === '' ? (
    <Text span size="sm" c="dimmed">
      (empty)
    </Text>
  ) : (
    value
  );

export function ProductChanges({ changes, caption }: { changes: readonly ProductChange[]; caption: string }) {
  if (changes.length === 0) return <Text size="sm">No field changes: every value sent was the value the product already had.</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped withTableBorder verticalSpacing={4} fz="sm">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>Before</Table.Th>
            <Table.Th>After</Table.Th>
            <Table.Th>Change</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changes.map((change) => (
            <Table.Tr key={change.key}>
              <Table.Th scope="row" fw={400}>
                {change.label}
              </Table.Th>
              <Table.Td>{shown(change.before)}</Table.Td>
              <Table.Td>{shown(change.after)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={KIND_COLORS[change.kind]}>
                  {change.kind}
                </Badge>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** What changed on the product since an update: the value the update wrote, and the value now. */
export function ChangedSinceTable({ changed }: { changed: readonly ChangedSince[] }) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped withTableBorder verticalSpacing={4} fz="sm">
        <Table.Caption>Changed since this update</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Field</Table.Th>
            <Table.Th>This update wrote</Table.Th>
            <Table.Th>Now</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {changed.map((one) => (
            <Table.Tr key={`${one.field}|${one.wire}`}>
              <Table.Th scope="row" fw={400}>
                {one.field}
              </Table.Th>
              <Table.Td>{shown(one.wrote)}</Table.Td>
              <Table.Td>{shown(one.now)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
