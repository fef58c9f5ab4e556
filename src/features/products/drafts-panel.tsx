/**
 * The products in progress in this browser, on this site: each with its name and when it was last
 * saved, to resume or delete; and a way to start a new one.
 */
import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { DateTime } from '@/lib/date-time';
import { STEPS } from './model/registry';
import type { Draft } from './draft-storage';

export function DraftsPanel({
  drafts,
  onResume,
  onDelete,
  onStartNew,
}: {
  drafts: readonly Draft[];
  onResume: (draft: Draft) => void;
  onDelete: (draft: Draft) => void;
  onStartNew: () => void;
}) {
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
      <Stack gap="xs" component="ul" aria-label="Drafts" p={0} m={0} style={{ listStyle: 'none' }}>
        {drafts.map((draft) => {
          const name = draft.values.name.trim() || 'Untitled product';
          const attributes = draft.values.attributes.length;
          return (
            <Paper key={draft.id} component="li" withBorder p="sm" radius="md">
              <Group justify="space-between" gap="sm">
                <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Text fw={600} truncate>
                    {name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Saved <DateTime date={new Date(draft.savedAt)} /> · {STEPS[draft.step]?.label ?? STEPS[0].label}
                    {attributes > 0 ? ` · ${attributes} ${attributes === 1 ? 'attribute' : 'attributes'}` : ''}
                  </Text>
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" onClick={() => onResume(draft)} aria-label={`Resume draft: ${name}`}>
                    Resume
                  </Button>
                  <Button size="xs" variant="default" onClick={() => onDelete(draft)} aria-label={`Delete draft: ${name}`}>
                    Delete
                  </Button>
                </Group>
              </Group>
            </Paper>
          );
        })}
      </Stack>
      <Group>
        <Button variant="light" onClick={onStartNew}>
          Start a new product
        </Button>
      </Group>
    </Stack>
  );
}
