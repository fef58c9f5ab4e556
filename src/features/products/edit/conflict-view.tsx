/**
 * The product changed on the platform since it was opened (a colleague in site-admin, or anyone in the
 * platform's own admin): nothing was sent. Field by field, what they changed beside what the person
 * changed, and a choice per field (take theirs, keep mine), or reload. Where both changed a field to
 * different values there is no default: the person chooses, so nothing of either is lost unseen.
 */
import { Alert, Button, Group, Radio, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { scrollRegionProps } from '@/lib/scroll-region';
import type { ConflictChoice, ConflictField, ProductConflict } from '../model/merge-conflict';
import { Value } from './change-list';

/** The choice a field starts with: none where both changed it differently, else the side that changed it. */
export function defaultChoice(field: ConflictField): ConflictChoice | null {
  if (field.conflict) return null;
  return field.mineChanged ? 'mine' : 'theirs';
}

export interface ConflictViewProps {
  conflict: ProductConflict;
  /**
   * Why it is shown: a save refused (412), a draft whose product changed since it was saved, or a change
   * waiting for approval (or sent back to its author) whose product changed since it was asked for.
   */
  cause: 'save' | 'draft' | 'change';
  /** Who changed it and when, where the platform says ("updated 14:02"); may be empty. */
  since?: string;
  onApply: (choices: Record<string, ConflictChoice>) => void;
  onReload: () => void;
}

export function ConflictView({ conflict, cause, since, onApply, onReload }: ConflictViewProps) {
  const [choices, setChoices] = useState<Record<string, ConflictChoice | null>>(() =>
    Object.fromEntries(conflict.fields.map((field) => [field.key, defaultChoice(field)])),
  );
  const open = conflict.fields.filter((field) => choices[field.key] === null).length;
  const both = conflict.fields.filter((field) => field.conflict).length;
  const theirsOnly = conflict.fields.filter((field) => field.theirsChanged && !field.mineChanged).length;
  const apply = () => {
    const chosen: Record<string, ConflictChoice> = {};
    for (const [key, choice] of Object.entries(choices)) if (choice) chosen[key] = choice;
    onApply(chosen);
  };
  return (
    <Stack gap="md">
      <Alert
        color="orange"
        title={
          cause === 'change'
            ? 'This product changed on the platform since the change was asked for'
            : 'This product changed on the platform since you opened it'
        }
        role="alert"
      >
        <Text size="sm">
          {cause === 'save'
            ? 'Nothing was sent: saving now would have overwritten what changed there.'
            : cause === 'draft'
              ? 'Your draft of it was based on the product as it was before; nothing was sent.'
              : 'Nothing was sent: the change was made on the product as it was before, so it cannot be sent as it is. Once you choose, asking again makes a new version on the product as it is now.'}{' '}
          {since ? `${since} ` : ''}
          Below is each field they changed beside each field you changed.{' '}
          {both > 0
            ? `${both} ${both === 1 ? 'field was' : 'fields were'} changed by both: choose which to keep.`
            : 'No field was changed by both.'}{' '}
          {theirsOnly > 0 ? 'Their other changes are kept unless you choose yours (the value you opened).' : ''}
        </Text>
      </Alert>
      <Title order={2} size="h4">
        Their changes and yours
      </Title>
      <Table.ScrollContainer minWidth={720} scrollAreaProps={scrollRegionProps('Their changes and yours')}>
        <Table withTableBorder fz="sm" aria-label="Their changes and yours" layout="fixed">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" w="24%">
                Field
              </Table.Th>
              <Table.Th scope="col">When you opened it</Table.Th>
              <Table.Th scope="col">Theirs (now on the platform)</Table.Th>
              <Table.Th scope="col">Yours</Table.Th>
              <Table.Th scope="col" w={200}>
                Keep
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {conflict.fields.map((field) => (
              <Table.Tr key={field.key} data-conflict={field.conflict || undefined}>
                <Table.Th scope="row" fw={field.conflict ? 700 : 500}>
                  {field.label}
                  {field.conflict && (
                    <Text size="xs" c="orange.8" fw={600}>
                      changed by both
                    </Text>
                  )}
                </Table.Th>
                <Table.Td>
                  <Value text={field.base} />
                </Table.Td>
                <Table.Td>{field.theirsChanged ? <Value text={field.theirs} /> : <Unchanged />}</Table.Td>
                <Table.Td>{field.mineChanged ? <Value text={field.mine} /> : <Unchanged />}</Table.Td>
                <Table.Td>
                  <Radio.Group
                    value={choices[field.key] ?? null}
                    onChange={(value) => setChoices((c) => ({ ...c, [field.key]: value }))}
                    aria-label={`Keep for ${field.label}`}
                  >
                    <Stack gap={4}>
                      <Radio value="theirs" label="Theirs" />
                      <Radio value="mine" label="Mine" />
                    </Stack>
                  </Radio.Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group>
        <Button onClick={apply} disabled={open > 0}>
          {open > 0 ? `Choose for ${open} more ${open === 1 ? 'field' : 'fields'}` : 'Apply my choices and review'}
        </Button>
        <Button variant="default" onClick={onReload}>
          Discard my changes and reload the product
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        After choosing, the editor holds the product as it is now with your choices, and Review shows what a save would change on it.
      </Text>
    </Stack>
  );
}

function Unchanged() {
  return (
    <Text span size="sm" c="dimmed">
      unchanged
    </Text>
  );
}
