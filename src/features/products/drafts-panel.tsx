/**
 * The products in progress in this browser, on this site: each with its name and when it was last
 * saved, to resume or delete; and a way to start a new one.
 */
import { Alert, Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { DateTime } from '@/lib/date-time';
import { STEPS } from './model/registry';
import type { Draft } from './draft-storage';

export function DraftsPanel({ drafts, onResume, onDelete, onStartNew }: { drafts: readonly Draft[]; onResume: (draft: Draft) => void; onDelete: (draft: Draft) => void; onStartNew: () => void }) {
  const one = drafts.length === 1;
  return (
    <Stack maw={860}>
      <Title order={1}>New product</Title>
      <Alert color="blue" title={one ? 'You have an unfinished product' : `You have ${drafts.length} unfinished products`}>
        <Text size="sm">
          {one ? 'It was' : 'They were'} saved in this browser as you typed. Carry on where you left off, or start another product: drafts
          stay until their product is created or you delete them.
        </Text>
      </Alert>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="xs" aria-label="Drafts">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Product</Table.Th>
              <Table.Th scope="col">Saved</Table.Th>
              <Table.Th scope="col">Step</Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {drafts.map((draft) => {
              const name = draft.values.name.trim() || 'Untitled product';
              return (
                <Table.Tr key={draft.id}>
                  <Table.Th scope="row" fw={500}>
                    {name}
                    {draft.values.attributes.length > 0 && (
                      <Text span size="xs" c="dimmed">
                        {' '}
                        · {draft.values.attributes.length} {draft.values.attributes.length === 1 ? 'attribute' : 'attributes'}
                      </Text>
                    )}
                  </Table.Th>
                  <Table.Td>
                    <DateTime date={new Date(draft.savedAt)} />
                  </Table.Td>
                  <Table.Td>{STEPS[draft.step]?.label ?? STEPS[0].label}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="xs" onClick={() => onResume(draft)} aria-label={`Resume draft: ${name}`}>
                        Resume
                      </Button>
                      <Button size="xs" variant="default" color="red" onClick={() => onDelete(draft)} aria-label={`Delete draft: ${name}`}>
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group>
        <Button variant="light" onClick={onStartNew}>
          Start a new product
        </Button>
      </Group>
    </Stack>
  );
}
