/**
 * Changes field by field, before → after, grouped by where they are (the product, each attribute, each
 * option): what a save of a correction sends, and what a colleague changed. Long lists show their first
 * rows until asked for the rest, so a product with every option's price changed stays quick to open.
 */
import { Badge, Button, Stack, Table, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { scrollRegionProps } from '@/lib/scroll-region';
import type { ProductChange, ProductChangeKind } from '../model/product-diff';

const FIRST_ROWS = 150;

const KIND_WORDS: Record<ProductChangeKind, { text: string; color: string }> = {
  changed: { text: 'changed', color: 'blue' },
  added: { text: 'added', color: 'teal' },
  disabled: { text: 'disabled', color: 'orange' },
  're-enabled': { text: 're-enabled', color: 'teal' },
};

export function Value({ text }: { text: string }) {
  return text === '' ? (
    <Text span size="sm" c="dimmed" fs="italic">
      empty
    </Text>
  ) : (
    <Text span size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

export function ChangeList({ changes, label }: { changes: readonly ProductChange[]; label: string }) {
  const [all, setAll] = useState(false);
  const shown = all ? changes : changes.slice(0, FIRST_ROWS);
  const rows: ReactNode[] = [];
  let where: string | null = null;
  for (const [i, change] of shown.entries()) {
    if (change.where !== where) {
      where = change.where;
      rows.push(
        <Table.Tr key={`where-${i}`}>
          <Table.Th scope="colgroup" colSpan={3}>
            {where === '' ? 'Product' : where}
          </Table.Th>
        </Table.Tr>,
      );
    }
    const kind = KIND_WORDS[change.kind];
    rows.push(
      <Table.Tr key={change.key}>
        <Table.Td>
          <Stack gap={2} align="flex-start">
            <Text size="sm">{change.field}</Text>
            <Badge size="xs" variant="light" color={kind.color}>
              {kind.text}
            </Badge>
          </Stack>
        </Table.Td>
        <Table.Td>
          {change.kind === 'added' ? (
            <Text span size="sm" c="dimmed">
              (new)
            </Text>
          ) : (
            <Value text={change.before} />
          )}
        </Table.Td>
        <Table.Td>
          <Value text={change.after} />
        </Table.Td>
      </Table.Tr>,
    );
  }
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={340} scrollAreaProps={scrollRegionProps(label)}>
        <Table withTableBorder fz="sm" aria-label={label} layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w="34%">
                Field
              </Table.Th>
              <Table.Th scope="col">Before</Table.Th>
              <Table.Th scope="col">After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{rows}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {changes.length > shown.length && (
        <Button variant="subtle" size="xs" w="fit-content" onClick={() => setAll(true)}>
          Show all {changes.length} changes
        </Button>
      )}
    </Stack>
  );
}
