/**
 * Removing an attribute or option takes one click and is undone with one more: the removed item waits
 * in a notification for a while, so a slip never costs 25 options' worth of prices.
 */
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/**
 * `existing`: the removed item is on the platform, which cannot delete it: the notice says that saving
 * switches it off instead.
 */
export function offerUndo(what: string, undo: () => void, existing?: 'attribute' | 'option') {
  const id = `undo-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  notifications.show({
    id,
    autoClose: 10_000,
    message: (
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">
          Removed {what}.{existing ? ` Saving switches it off: the platform cannot delete an ${existing}.` : ''}
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          onClick={() => {
            undo();
            notifications.hide(id);
          }}
        >
          Undo
        </Button>
      </Group>
    ),
  });
}
