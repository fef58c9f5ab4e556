/**
 * Retiring a product (switching it off: the platform has no delete) or bringing it back, after a
 * confirmation that names it. The page sends the smallest update (its name and the switch) through the
 * same path as a save: If-Match with the product as read, recorded like any update.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';

export function RetireDialog({
  opened,
  retire,
  name,
  siteName,
  sending,
  failure,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  /** Retire (true) or bring back (false). */
  retire: boolean;
  name: string;
  siteName: string;
  sending: boolean;
  /** Why the last attempt failed, in words. */
  failure: { title: string; message: string } | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const title = retire ? `Retire “${name}”?` : `Bring back “${name}”?`;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Stack>
        <Text size="sm">
          {retire
            ? `“${name}” is switched off on ${siteName}: customers no longer see it or buy it. Nothing else about it changes, and you can bring it back at any time.`
            : `“${name}” is switched on again on ${siteName}: customers can see it and buy it (from its release date, until its expiry date, if it has them).`}
        </Text>
        {failure && (
          <Alert color="red" title={failure.title} role="alert">
            {failure.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button color={retire ? 'red' : 'teal'} onClick={onConfirm} loading={sending}>
            {retire ? 'Retire product' : 'Bring back product'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
