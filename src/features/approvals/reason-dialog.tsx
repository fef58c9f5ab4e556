/**
 * A dialog that asks why (a rejection, an owner's send without approval): a reason is required (at most
 * REASON_MAX characters), checked through the form library with the same limits the server holds it to.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import { REASON_MAX } from '@/contract/approvals';

const reasonSchema = z.object({
  reason: z.string().check(
    z.refine((text) => text.trim().length > 0, 'Say why: the reason is required, and recorded.'),
    z.maxLength(REASON_MAX, `At most ${REASON_MAX} characters.`),
  ),
});

interface ReasonDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What happens, said before the reason is asked for (the product named). */
  children: ReactNode;
  label: string;
  submit: string;
  color: string;
  pending: boolean;
  /** What went wrong the last time, in words; null when nothing did. */
  failure: string | null;
  onSubmit: (reason: string) => void;
}

export function ReasonDialog({ opened, onClose, title, children, label, submit, color, pending, failure, onSubmit }: ReasonDialogProps) {
  const form = useForm<{ reason: string }>({ resolver: zodResolver(reasonSchema), defaultValues: { reason: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg">
      <form onSubmit={(event) => void form.handleSubmit(({ reason }) => onSubmit(reason.trim()))(event)} noValidate>
        <Stack gap="sm">
          {children}
          <Textarea
            label={label}
            required
            autosize
            minRows={3}
            maxLength={REASON_MAX}
            description={`Required; at most ${REASON_MAX} characters. Recorded in the activity record.`}
            error={form.formState.errors.reason?.message}
            data-autofocus
            {...form.register('reason')}
          />
          {failure ? (
            <Alert color="red" title="Not done" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" color={color} loading={pending}>
              {submit}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
